import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, tempHome } from '../../../tests/fixtures/mcp/servers';
import { bundledFixture } from '../../../tests/support/fixture-bundle';

const fixtures = join(repoRoot, 'tests', 'fixtures', 'mcp');
const suite = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const client = `${JSON.stringify(process.execPath)} ${JSON.stringify(bundledFixture(join(fixtures, 'conformance-client.ts')))}`;

function run(scenario: string, outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // The suite imports Node 22's fs.globSync (the shim provides it on Node 20); its test servers bind 127.0.0.1.
    const shims = ['node22-fs-shim.mjs', 'bind-loopback.mjs'].flatMap((f) => ['--import', pathToFileURL(join(fixtures, f)).href]);
    const child = spawn(process.execPath, [...shims, suite, 'client', '--command', client, '--scenario', scenario, '-o', outDir], {
      cwd: outDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      resolve({ code, output });
    });
  });
}

function checks(dir: string): { id: string; status: string; errorMessage?: string }[] {
  const out: { id: string; status: string }[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('checks.json')) out.push(...(JSON.parse(readFileSync(join(dir, entry), 'utf8')) as { id: string; status: string }[]));
  return out;
}

/** Every client scenario the suite ships (0.1.16); the first test checks that this list is still the suite's. */
const CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
];

/** Scenarios that cannot apply to Erasmus, each with the reason (none: cross-app access is `oauth.grant: cross_app_access`). */
const NOT_APPLICABLE: Record<string, string> = {};

function list(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(join(fixtures, 'node22-fs-shim.mjs')).href, suite, 'list'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', () => resolve(out));
  });
}

// The scenarios run side by side: each is a suite process and a client process that mostly wait on each other's HTTP.
describe.concurrent('official MCP conformance suite, client scenarios, against the hub', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('covers every client scenario the suite ships', async () => {
    const out = await list();
    const shipped = [...out.slice(out.indexOf('Client scenarios')).matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1]);
    expect(shipped.sort()).toEqual([...CLIENT_SCENARIOS].sort());
  }, 30_000);

  for (const scenario of CLIENT_SCENARIOS) {
    const reason = NOT_APPLICABLE[scenario];
    if (reason) {
      it.skip(`${scenario} (not applicable: ${reason})`, () => {});
      continue;
    }
    it(scenario, async () => {
      const dir = tempHome('erasmus-conformance-out-');
      dirs.push(dir);
      const { output } = await run(scenario, dir);
      const results = checks(dir);
      const bad = results.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      expect(bad, output).toEqual([]);
      expect(results.filter((c) => c.status === 'SUCCESS').length, output).toBeGreaterThan(0);
      expect(output).toContain('OVERALL: PASSED');
    }, 100_000);
  }
});
