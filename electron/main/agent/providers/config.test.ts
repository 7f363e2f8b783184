import { catalogModelName } from './known-models';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentConfig, resolveProvider } from './config';
import { defaultPlugins } from './plugins';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'erasmus-providers-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const write = (text: string) => {
  const f = join(dir, 'config.yaml');
  writeFileSync(f, text);
  return f;
};
const secrets = (m: Record<string, string>) => ({ env: {}, secret: async (n: string) => m[n] });

describe('provider configuration', () => {
  it('has one plugin for each provider kind', () => {
    expect([...defaultPlugins().keys()].sort()).toEqual(['anthropic', 'google', 'ollama', 'openai', 'openai-compatible', 'openrouter']);
  });

  it('reads providers from config.yaml and fills the key from the keychain', async () => {
    const cfg = await loadAgentConfig(
      write(`defaultProvider: claude
providers:
  - id: claude
    kind: anthropic
    model: claude-sonnet-4-5
    apiKey: \${secret:ANTHROPIC_KEY}
  - id: local
    name: LM Studio here
    kind: openai-compatible
    model: qwen3
    baseUrl: http://127.0.0.1:1234/v1
    contextWindow: 16384
    nativeTools: false
mcpServers: {}
`),
    );
    const claude = await resolveProvider(cfg, {}, secrets({ ANTHROPIC_KEY: 'k' }));
    expect(claude).toMatchObject({ id: 'claude', kind: 'anthropic', model: 'claude-sonnet-4-5', contextWindow: 200_000, supportsNativeTools: true, pricing: { input: 3, output: 15 } });
    const local = await resolveProvider(cfg, { provider: 'local' }, secrets({}));
    expect(local).toMatchObject({ contextWindow: 16384, supportsNativeTools: false });
    // Named in words for people: the configured name, else the kind; the model's catalog name, else its id.
    expect([claude.providerName, local.providerName, local.modelName]).toEqual(['Anthropic', 'LM Studio here', 'qwen3']);
    expect(catalogModelName('claude-3-7-sonnet-20250219')).toBe('Claude Sonnet 3.7');
    expect(catalogModelName('you')).toBeUndefined();
    expect(local.pricing).toBeUndefined();
    await expect(resolveProvider(cfg, {}, secrets({}))).rejects.toThrow(/ANTHROPIC_KEY.*erasmus secrets set/);
  });

  it('refuses a literal key in the config and names bad entries', async () => {
    await expect(loadAgentConfig(write('providers:\n  - id: x\n    kind: openai\n    model: gpt-4o\n    apiKey: sk-123\n'))).rejects.toThrow(/apiKey must be a reference/);
    await expect(loadAgentConfig(write('providers:\n  - id: x\n    kind: nope\n    model: m\n'))).rejects.toThrow(/providers\.0\.kind/);
    await expect(loadAgentConfig(write('providers:\n  - {id: a, kind: ollama, model: m}\n  - {id: a, kind: ollama, model: n}\n'))).rejects.toThrow(/"a" appears twice/);
    expect(await loadAgentConfig(join(dir, 'missing.yaml'))).toEqual({ providers: [] });
  });

  it('without configuration, a base URL and a model make an OpenAI-compatible provider; otherwise a clear error', async () => {
    const p = await resolveProvider({ providers: [] }, { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }, { env: {} });
    expect(p).toMatchObject({ kind: 'openai-compatible', model: 'm' });
    await expect(resolveProvider({ providers: [] }, {}, { env: {} })).rejects.toThrow(/no provider is configured/);
    await expect(resolveProvider({ providers: [] }, { provider: 'openai', model: 'gpt-4o' }, { env: {} })).rejects.toThrow(/needs an API key/);
  });
});
