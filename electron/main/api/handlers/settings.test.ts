import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KeychainBackend } from '../../secrets/index';
import { connectedCore } from '../testing';

/** An in-memory keychain (the real one needs a desktop session; secrets.* has its own tests). */
function memoryKeychain(): KeychainBackend & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getPassword: async (_s, a) => data.get(a) ?? null,
    setPassword: async (_s, a, p) => void data.set(a, p),
    deletePassword: async (_s, a) => data.delete(a),
    findCredentials: async () => [...data].map(([account, password]) => ({ account, password })),
  };
}

const project = mkdtempSync(join(tmpdir(), 'erasmus-settings-p-'));
const keychain = memoryKeychain();
const { home, client, dispose } = connectedCore('settings-h', { keychain });
afterAll(async () => {
  await dispose();
  rmSync(project, { recursive: true, force: true });
});

describe('settings.* over the contract', () => {
  it('adds a provider with its key in the keychain and only a reference in config.yaml', async () => {
    writeFileSync(join(home, 'config.yaml'), '# mine\nextensions: {}\n');
    const state = await client.request('settings.providers.add', { provider: { id: 'oa', kind: 'openai', model: 'gpt-4.1' }, key: { secret: 'OPENAI_API_KEY', value: 'sk-secret-1' } });
    expect(state.providers).toEqual([{ id: 'oa', kind: 'openai', model: 'gpt-4.1', apiKey: '${secret:OPENAI_API_KEY}' }]);
    expect(state.kinds).toContain('anthropic');
    expect(keychain.data.get('OPENAI_API_KEY')).toBe('sk-secret-1');
    const text = readFileSync(join(home, 'config.yaml'), 'utf8');
    expect(text).not.toContain('sk-secret-1');
    expect(text).toMatch(/^# mine\nextensions: \{\}\n/);
    expect((await client.request('settings.providers.setDefault', { id: 'oa' })).defaultProvider).toBe('oa');
  });

  it('answers a raw key with a failed action naming apiKey, and keeps the file', async () => {
    const before = readFileSync(join(home, 'config.yaml'), 'utf8');
    const err = await client.request('settings.providers.update', { id: 'oa', provider: { id: 'oa', kind: 'openai', model: 'gpt-4.1', apiKey: 'sk-raw' } }).catch((e: unknown) => e as { code: number; message: string; data: unknown });
    expect(err).toMatchObject({ code: -32000, data: { field: 'apiKey' } });
    expect((err as { message: string }).message).toMatch(/apiKey/);
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toBe(before);
  });

  it('sets the agent defaults, toggles a project rule and review, and edits prompt sections', async () => {
    expect(await client.request('settings.agent.set', { approvals: 'unattended' })).toEqual({ toolMode: 'auto', approvals: 'unattended' });
    await expect(client.request('settings.agent.set', { toolMode: 'telepathy' } as never)).rejects.toThrow(/toolMode/);

    const runners = await client.request('settings.runners.set', { project, disable: ['npx'], review: false });
    expect(runners.review).toBe(false);
    expect(runners.rules.find((r) => r.id === 'npx')?.enabled).toBe(false);
    expect(JSON.parse(readFileSync(join(project, '.erasmus', 'settings.json'), 'utf8'))).toEqual({ runners: { rewrite: { disabled: ['npx'] }, review: false } });
    // Allowed hosts: added (trimmed, lower case, once), removed, a bad one refused naming it; the file keeps the rest.
    const hosts = await client.request('settings.runners.set', { project, allowHosts: [' Registry.npmjs.org ', '127.0.0.1:8080', 'registry.npmjs.org'] });
    expect(hosts.allowedHosts).toEqual(['registry.npmjs.org', '127.0.0.1:8080']);
    expect((await client.request('settings.runners.set', { project, disallowHosts: ['127.0.0.1:8080'] })).allowedHosts).toEqual(['registry.npmjs.org']);
    await expect(client.request('settings.runners.set', { project, allowHosts: ['https://pypi.org/simple'] })).rejects.toThrow(/"https:\/\/pypi.org\/simple" is not an allowed host: an allowed host is a host name/);
    expect(JSON.parse(readFileSync(join(project, '.erasmus', 'settings.json'), 'utf8'))).toEqual({ runners: { rewrite: { disabled: ['npx'] }, review: false, network: { allowedHosts: ['registry.npmjs.org'] } } });
    await expect(client.request('settings.runners.get', { project: join(project, 'missing') })).rejects.toThrow(/not a folder/);

    const { sections } = await client.request('settings.prompts.list', {});
    expect(sections.find((s) => s.name === 'RULES')).toEqual({ name: 'RULES', builtin: true, overridden: false });
    await client.request('settings.prompts.set', { name: 'RULES', body: 'My rules.' });
    expect(readFileSync(join(home, 'prompts', 'RULES.md'), 'utf8')).toBe('My rules.');
    const rules = await client.request('settings.prompts.get', { name: 'RULES' });
    expect(rules.override).toBe('My rules.');
    expect(rules.builtin?.length).toBeGreaterThan(10);
    await expect(client.request('settings.prompts.set', { name: '../config', body: 'x' })).rejects.toThrow(/section name/);
    expect(await client.request('settings.prompts.reset', { name: 'RULES' })).toEqual({ deleted: true });
    expect(existsSync(join(home, 'prompts', 'RULES.md'))).toBe(false);
  });
});
