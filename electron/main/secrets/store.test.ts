import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '../api/core';
import { KeychainUnavailableError, Redactor, SecretStore } from './index';

// These run against the real OS keychain (a private gnome-keyring under dbus-run-session in `npm test`).
const prefix = `erasmus_test_${process.pid}_${Date.now()}`;

describe('SecretStore on the real keychain', () => {
  const redactor = new Redactor();
  const store = new SecretStore(redactor);
  const created: string[] = [];
  afterAll(async () => {
    for (const n of created) await store.delete(n).catch(() => undefined);
  });

  it('sets, gets, lists and deletes a secret', async () => {
    const name = `${prefix}_A`;
    created.push(name);
    await store.set(name, 'sk-live-round-trip-123456');
    expect(await store.get(name)).toBe('sk-live-round-trip-123456');
    expect(await store.list()).toContain(name);
    expect(await store.delete(name)).toBe(true);
    expect(await store.get(name)).toBeUndefined();
    expect(await store.list()).not.toContain(name);
    expect(await store.delete(name)).toBe(false);
  });

  it('redacts a stored value in text bound for logs', async () => {
    const name = `${prefix}_B`;
    created.push(name);
    await store.set(name, 'ghp_superSecretValue42');
    expect(redactor.redact('token=ghp_superSecretValue42 ok')).toBe(`token=[secret:${name}] ok`);
  });

  it('a fresh core learns every stored value by listing, and no secret reaches a file it writes', async () => {
    const name = `${prefix}_C`;
    created.push(name);
    const value = 'xoxb-never-in-a-file-98765';
    await store.set(name, value);
    const home = mkdtempSync(join(tmpdir(), 'erasmus-home-'));
    const core = new Core({ face: 'cli', home });
    await core.secrets.primeRedactor();
    expect(core.redactor.redact(`value ${value}`)).not.toContain(value);
    // Exercise the core through the contract, including a project open that writes recent.json.
    const project = mkdtempSync(join(tmpdir(), 'erasmus-proj-'));
    const res = await core.dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'project.open', params: { path: project } }, { face: 'cli' });
    expect(res && 'result' in res).toBe(true);
    const list = await core.dispatcher.handle({ jsonrpc: '2.0', id: 2, method: 'secrets.list', params: {} }, { face: 'cli' });
    expect(JSON.stringify(list)).not.toContain(value);
    await core.dispose();
    try {
      for (const f of walk(home)) expect(readFileSync(f, 'utf8')).not.toContain(value);
    } finally {
      for (const dir of [home, project]) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('without a keychain', () => {
  it('says plainly that the keychain is unreachable and what to do, and stores nothing', async () => {
    const store = new SecretStore(new Redactor(), {
      getPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      setPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      deletePassword: () => Promise.reject(new Error('x')),
      findCredentials: () => Promise.reject(new Error('x')),
    });
    await expect(store.set('A', 'value')).rejects.toBeInstanceOf(KeychainUnavailableError);
    await expect(store.set('A', 'value')).rejects.toThrow(/keychain is not reachable.*never falls back to plain text/s);
  });

  it('the CLI fails with that message when no D-Bus session exists', async () => {
    const { code, stderr } = await runCli(['secrets', 'list'], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/keychain is not reachable/);
    expect(stderr).toMatch(/gnome-keyring/);
  });
});

describe('CLI secrets', () => {
  it('sets from stdin (never argv), lists, deletes', async () => {
    const name = `${prefix}_CLI`;
    const set = await runCli(['secrets', 'set', name], {}, 'cli-secret-value-777\n');
    expect(set.code).toBe(0);
    const list = await runCli(['secrets', 'list', '--json'], {});
    expect(JSON.parse(list.stdout).names).toContain(name);
    expect(list.stdout).not.toContain('cli-secret-value-777');
    const del = await runCli(['secrets', 'delete', name], {});
    expect(del.code).toBe(0);
    const after = await runCli(['secrets', 'list', '--json'], {});
    expect(JSON.parse(after.stdout).names).not.toContain(name);
  });

  it('refuses a bad name with a message naming it', async () => {
    const r = await runCli(['secrets', 'delete', 'bad name!'], {});
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('bad name!');
  });
});

function runCli(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'erasmus-home-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'erasmus.js'), ...args], {
      env: { ...process.env, ERASMUS_HOME: home, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => {
      rmSync(home, { recursive: true, force: true });
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}
