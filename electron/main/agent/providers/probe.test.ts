import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../../tests/fixtures/scripted-llm/index';
import { resolveProvider } from './config';
import { probeProvider } from './probe';

describe('probeProvider (test connection)', () => {
  let llm: ScriptedLlm | undefined;
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });
  const resolve = (baseUrl: string) => () =>
    resolveProvider({ defaultProvider: 'local', providers: [{ id: 'local', kind: 'openai-compatible', model: 'm1', baseUrl }] } as never, {}, { env: {}, secret: async () => undefined });

  it('answers with what the model said through the configured endpoint', async () => {
    llm = await startScriptedLlm([{ text: 'OK' }]);
    const r = await probeProvider(resolve(llm.baseUrl));
    expect(r).toMatchObject({ ok: true, provider: 'local', model: 'm1', message: 'OK' });
  });

  it("reports the provider's own error verbatim, with its status", async () => {
    llm = await startScriptedLlm([{ error: { status: 429, message: 'Rate limit reached, retry in 20 s' } }]);
    const r = await probeProvider(resolve(llm.baseUrl));
    expect(r.ok).toBe(false);
    expect(r.message).toContain('429');
    expect(r.message).toContain('retry in 20 s');
  });

  it('says what is missing when no provider resolves', async () => {
    const r = await probeProvider(() => resolveProvider({ providers: [] } as never, {}, { env: {}, secret: async () => undefined }));
    expect(r).toMatchObject({ ok: false });
    expect(r.message).toContain('no provider is configured');
  });
});
