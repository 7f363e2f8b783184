import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The packaged app's hardening lives in electron-builder.yml and build/: this reads it as
// electron-builder will, so a fuse switched back on or an entitlement added fails here.
const root = join(__dirname, '../../..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;

describe('packaging hardening', () => {
  it('flips the fuses: no run-as-node, NODE_OPTIONS or --inspect; asar integrity and asar-only loading; cookie encryption', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('keeps the mac entitlements minimal (no library-validation bypass, no unsigned executable memory)', () => {
    const plist = readFileSync(join(root, 'build', 'entitlements.mac.plist'), 'utf8');
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1]);
    expect(keys).toEqual(['com.apple.security.cs.allow-jit']);
  });
});

describe('packaging config', () => {
  it('is valid for electron-builder (its own JSON schema) and names a signed, https update feed', async () => {
    const { default: Ajv } = await import('ajv');
    const schema = JSON.parse(readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    expect(validate(config), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const publish = config.publish as Array<{ provider: string; url: string }>;
    expect(publish).toHaveLength(1);
    expect(publish[0]!.url).toMatch(/^https:\/\//);
    const win = config.win as { verifyUpdateCodeSignature: boolean; signtoolOptions: { publisherName: string[] } };
    expect(win.verifyUpdateCodeSignature).toBe(true);
    expect(win.signtoolOptions.publisherName.length).toBeGreaterThan(0);
    expect((config.mac as { hardenedRuntime: boolean }).hardenedRuntime).toBe(true);
  });
});
