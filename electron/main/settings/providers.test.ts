import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../agent/providers/config';
import { getAgentDefaults, setAgentDefaults } from './agent-defaults';
import { addProvider, listProviders, removeProvider, setDefaultProvider, updateProvider } from './providers';

const ORIGINAL = `# Erasmus settings (hand-written)
defaultProvider: local
providers:
  # my LM Studio box
  - id: local
    kind: openai-compatible
    model: qwen3-coder # the fast one
    baseUrl: http://127.0.0.1:1234/v1
extensions:
  developer: { enabled: true, type: builtin }
`;

let dir: string;
let file: string;
let stored: Map<string, string>;
const secrets = { set: async (name: string, value: string) => void stored.set(name, value) };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-settings-'));
  file = join(dir, 'config.yaml');
  stored = new Map();
  writeFileSync(file, ORIGINAL);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('providers in config.yaml', () => {
  it('keeps reasoning settings and cache-aware price overrides, and names a bad one', async () => {
    await addProvider(file, secrets, { id: 'gpt', kind: 'openai', model: 'gpt-5', reasoning: { effort: 'high' }, pricing: { input: 1, output: 8, cacheRead: 0.1 }, store: false }, { secret: 'OPENAI_KEY', value: 'sk-1' });
    const entry = (await loadAgentConfig(file)).providers.find((p) => p.id === 'gpt');
    expect(entry).toMatchObject({ reasoning: { effort: 'high' }, pricing: { input: 1, output: 8, cacheRead: 0.1 }, store: false });
    await expect(updateProvider(file, secrets, 'gpt', { id: 'gpt', kind: 'openai', model: 'gpt-5', reasoning: { effort: 'extreme' as never } })).rejects.toThrow(/reasoning\.effort/);
    expect((await loadAgentConfig(file)).providers.find((p) => p.id === 'gpt')?.reasoning).toEqual({ effort: 'high' });
  });

  it('lists, adds with a keychain key, updates, renames and removes, keeping comments and unknown keys', async () => {
    expect((await listProviders(file)).providers).toEqual([{ id: 'local', kind: 'openai-compatible', model: 'qwen3-coder', baseUrl: 'http://127.0.0.1:1234/v1' }]);

    const added = await addProvider(file, secrets, { id: 'claude', kind: 'anthropic', model: 'claude-sonnet-4' }, { secret: 'ANTHROPIC_KEY', value: 'sk-ant-123' });
    expect(added.providers.map((p) => p.id)).toEqual(['local', 'claude']);
    expect(stored.get('ANTHROPIC_KEY')).toBe('sk-ant-123');
    let text = readFileSync(file, 'utf8');
    expect(text).toContain('apiKey: ${secret:ANTHROPIC_KEY}');
    expect(text).not.toContain('sk-ant-123');

    await updateProvider(file, secrets, 'local', { id: 'lmstudio', kind: 'openai-compatible', model: 'qwen3-coder', baseUrl: 'http://127.0.0.1:1234/v1', contextWindow: 32768 });
    text = readFileSync(file, 'utf8');
    for (const kept of ['# Erasmus settings (hand-written)', '# my LM Studio box', '# the fast one', 'developer: { enabled: true, type: builtin }']) expect(text).toContain(kept);
    const config = await loadAgentConfig(file);
    expect(config.defaultProvider).toBe('lmstudio');
    expect(config.providers.find((p) => p.id === 'lmstudio')?.contextWindow).toBe(32768);
    expect((config as Record<string, unknown>).extensions).toEqual({ developer: { enabled: true, type: 'builtin' } });

    await setDefaultProvider(file, 'claude');
    expect((await listProviders(file)).defaultProvider).toBe('claude');
    const after = await removeProvider(file, 'claude');
    expect(after.defaultProvider).toBeNull();
    expect(after.providers.map((p) => p.id)).toEqual(['lmstudio']);
    expect(readFileSync(file, 'utf8')).toContain('# Erasmus settings (hand-written)');
  });

  it('refuses a raw key, a bad kind or a duplicate id with a message naming the field, and writes nothing', async () => {
    await expect(addProvider(file, secrets, { id: 'x', kind: 'openai', model: 'gpt-4.1', apiKey: 'sk-live-raw' })).rejects.toThrow(/apiKey: .*never the key itself/);
    await expect(addProvider(file, secrets, { id: 'x', kind: 'skynet', model: 'm' })).rejects.toThrow(/kind:/);
    await expect(addProvider(file, secrets, { id: 'x', kind: 'openai', model: 'm', baseUrl: 'not a url' })).rejects.toThrow(/baseUrl:/);
    await expect(addProvider(file, secrets, { id: 'local', kind: 'openai', model: 'm' }, { secret: 'K', value: 'v' })).rejects.toThrow(/"local" already exists/);
    await expect(updateProvider(file, secrets, 'nope', { id: 'nope', kind: 'openai', model: 'm' })).rejects.toThrow(/no provider "nope"/);
    await expect(setDefaultProvider(file, 'nope')).rejects.toThrow(/configured: local/);
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
    expect(stored.size).toBe(0);
  });

  it('starts config.yaml when there is none, and refuses to touch one that is not valid YAML', async () => {
    rmSync(file);
    await addProvider(file, secrets, { id: 'o', kind: 'ollama', model: 'llama3' });
    expect((await loadAgentConfig(file)).providers).toEqual([{ id: 'o', kind: 'ollama', model: 'llama3' }]);
    writeFileSync(file, 'providers: [\n  broken');
    await expect(addProvider(file, secrets, { id: 'p', kind: 'ollama', model: 'x' })).rejects.toThrow(/not valid YAML/);
    expect(readFileSync(file, 'utf8')).toBe('providers: [\n  broken');
  });
});

describe('agent defaults in config.yaml', () => {
  it('reads the defaults, writes toolMode and approvals where the agent reads them, and keeps the rest', async () => {
    expect(await getAgentDefaults(file)).toEqual({ toolMode: 'auto', approvals: 'non-destructive' });
    expect(await setAgentDefaults(file, { toolMode: 'xml', approvals: 'ask' })).toEqual({ toolMode: 'xml', approvals: 'ask' });
    const config = await loadAgentConfig(file);
    expect([config.toolMode, config.approvals]).toEqual(['xml', 'ask']);
    expect(readFileSync(file, 'utf8')).toContain('# the fast one');
    await expect(setAgentDefaults(file, { approvals: 'yolo' } as never)).rejects.toThrow(/approvals/);
    expect((await getAgentDefaults(file)).approvals).toBe('ask');
  });

  it('an empty change to a missing or comment-only config.yaml writes no `null` that later reads refuse', async () => {
    for (const text of [undefined, '# only a note\n']) {
      rmSync(file, { force: true });
      if (text !== undefined) writeFileSync(file, text);
      expect(await setAgentDefaults(file, {})).toEqual({ toolMode: 'auto', approvals: 'non-destructive' });
      expect(readFileSync(file, 'utf8')).not.toContain('null');
      if (text) expect(readFileSync(file, 'utf8')).toContain('# only a note');
      await expect(loadAgentConfig(file)).resolves.toBeDefined();
      await addProvider(file, secrets, { id: 'p', kind: 'ollama', model: 'x' });
      expect((await listProviders(file)).providers.map((p) => p.id)).toEqual(['p']);
    }
  });
});
