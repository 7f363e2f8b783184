import type { ProviderHandle } from './types';

export interface ProbeResult {
  ok: boolean;
  provider: string;
  model: string;
  /** What the model answered, or the provider's own error, verbatim (status code first when there is one). */
  message: string;
  ms: number;
}

const describe = (err: unknown): string => {
  const e = err as { statusCode?: number; message?: string; responseBody?: string };
  const status = typeof e.statusCode === 'number' ? `HTTP ${e.statusCode}: ` : '';
  return `${status}${e.message ?? String(err)}`;
};

/**
 * "Test connection": one tiny completion through the provider as configured (its key, its base URL),
 * bounded by `timeoutMs`. Never throws: a failure is reported with the provider's own words.
 */
export async function probeProvider(resolve: () => Promise<ProviderHandle>, timeoutMs = 20_000): Promise<ProbeResult> {
  const started = Date.now();
  let handle: ProviderHandle;
  try {
    handle = await resolve();
  } catch (err) {
    return { ok: false, provider: '', model: '', message: (err as Error).message, ms: Date.now() - started };
  }
  const base = { provider: handle.id, model: handle.model };
  if (!handle.languageModel) return { ...base, ok: false, message: 'this provider cannot be called directly', ms: 0 };
  try {
    const { generateText } = await import('ai');
    const r = await generateText({ model: handle.languageModel, prompt: 'Reply with the single word OK.', maxOutputTokens: 16, maxRetries: 0, abortSignal: AbortSignal.timeout(timeoutMs) });
    return { ...base, ok: true, message: r.text.trim().slice(0, 200) || '(an empty answer)', ms: Date.now() - started };
  } catch (err) {
    return { ...base, ok: false, message: describe(err), ms: Date.now() - started };
  }
}
