import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetSandboxProbe } from '../runners/pty/sandbox';
import { runDoctor } from './index';

let dir: string;
let configYaml: string;
const saved = process.env.ERASMUS_SANDBOX;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-doctor-'));
  configYaml = join(dir, 'config.yaml');
  resetSandboxProbe();
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  if (saved === undefined) delete process.env.ERASMUS_SANDBOX;
  else process.env.ERASMUS_SANDBOX = saved;
  resetSandboxProbe();
});

const secrets = (names: string[] | Error) => ({ list: async () => (names instanceof Error ? Promise.reject(names) : names) });

describe('erasmus doctor', () => {
  it('on a working machine: the sandbox as probed, the keychain, a real pseudo-terminal, and each provider with its key', async () => {
    writeFileSync(configYaml, 'defaultProvider: local\nproviders:\n  - id: local\n    kind: openai-compatible\n    model: qwen\n    baseUrl: http://127.0.0.1:1/v1\n    apiKey: ${secret:LOCAL_KEY}\n');
    const checks = await runDoctor({ secrets: secrets(['LOCAL_KEY']), configYaml });
    expect(checks.map((c) => c.id)).toEqual(['sandbox', 'keychain', 'pty', 'providers']);
    const by = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(by.keychain).toMatchObject({ status: 'ok', summary: expect.stringContaining('1 Erasmus secret') });
    expect(by.pty).toMatchObject({ status: 'ok', summary: expect.stringContaining('read on a thread of their own') });
    expect(by.providers).toMatchObject({ status: 'ok', summary: '1 provider: local (default): openai-compatible qwen' });
    // The sandbox line tells the truth about this machine (bwrap may or may not work here).
    expect(['ok', 'warn']).toContain(by.sandbox!.status);
    expect(by.sandbox!.summary).toMatch(by.sandbox!.status === 'ok' ? /bubblewrap/ : /every command that is not read-only asks/);
  });

  it('says what fails and how to fix it: sandbox off, keychain unreachable, node-pty broken, no provider', async () => {
    process.env.ERASMUS_SANDBOX = 'off';
    const checks = await runDoctor({
      secrets: secrets(new Error('no D-Bus session')),
      configYaml,
      loadPty: () => {
        throw new Error('pty.node: invalid ELF header');
      },
    });
    const by = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(by.sandbox).toMatchObject({ status: 'warn', summary: expect.stringMatching(/not sandboxed.*every command that is not read-only asks/), fix: expect.stringMatching(/unset ERASMUS_SANDBOX/) });
    expect(by.keychain).toMatchObject({ status: 'fail', detail: 'no D-Bus session' });
    expect(by.pty).toMatchObject({ status: 'fail', detail: expect.stringContaining('invalid ELF header'), fix: expect.stringMatching(/npm rebuild node-pty/) });
    expect(by.providers).toMatchObject({ status: 'warn', summary: 'no LLM provider is configured', fix: expect.stringContaining(configYaml) });
  });

  it('warns when terminals are read on the main thread, and says why', async () => {
    process.env.ERASMUS_PTY_HOST = '0';
    try {
      const checks = await runDoctor({ secrets: secrets([]), configYaml });
      expect(checks.find((c) => c.id === 'pty')).toMatchObject({ status: 'warn', summary: expect.stringContaining('read on the main thread'), detail: 'ERASMUS_PTY_HOST=0 is set', fix: 'unset ERASMUS_PTY_HOST' });
    } finally {
      delete process.env.ERASMUS_PTY_HOST;
    }
  });

  it('names a provider whose key is missing from the keychain, and a keychain that hangs', async () => {
    writeFileSync(configYaml, 'providers:\n  - id: gpt\n    kind: openai\n    model: gpt-5\n    apiKey: ${secret:OPENAI_KEY}\n');
    const missing = await runDoctor({ secrets: secrets([]), configYaml });
    expect(missing.find((c) => c.id === 'providers')).toMatchObject({ status: 'warn', detail: expect.stringContaining('gpt (its key OPENAI_KEY is not in the keychain)') });
    const hung = await runDoctor({ secrets: { list: () => new Promise<string[]>(() => undefined) }, configYaml, timeoutMs: 200 });
    expect(hung.find((c) => c.id === 'keychain')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/did not answer within/) });
  });

  it('fails a config.yaml that a chat or a workflow would refuse (a misspelt kind, an unknown key), with their words', async () => {
    writeFileSync(configYaml, 'providers:\n  - id: me\n    kind: openai-compatable\n    model: you\n    baseURL: http://127.0.0.1:1/v1\n    apiKey: ${env:X6_KEY}\n');
    const checks = await runDoctor({ secrets: secrets([]), configYaml });
    expect(checks.find((c) => c.id === 'providers')).toMatchObject({
      status: 'fail',
      summary: 'config.yaml is refused: no chat or workflow can start',
      detail: expect.stringMatching(/providers\.0\.kind: .*openai-compatible.*providers\.0: Unrecognized key: "baseURL"/),
      fix: expect.stringContaining(configYaml),
    });
  });
});
