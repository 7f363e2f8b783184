/** Ollama's context sizing: the window it will really use, and the model's limit from `/api/show`. */

const STEP = 4096;
/** Room left for the answer when the request names no output limit. */
const OUTPUT_RESERVE = 4096;

/**
 * The `num_ctx` for a request of `tokens` tokens: rounded up to a multiple of 4096 (so it changes
 * rarely and Ollama keeps the model loaded), never above `limit`. Ollama silently cuts the start of a
 * longer request — the system prompt and tools — so that case comes with a warning.
 */
export function ollamaNumCtx(tokens: number, maxOutputTokens: number | undefined, limit: number): { numCtx: number; warning?: string } {
  const need = tokens + (maxOutputTokens ?? OUTPUT_RESERVE);
  const numCtx = Math.min(limit, Math.max(STEP, Math.ceil(need / STEP) * STEP));
  if (tokens < limit) return { numCtx };
  return {
    numCtx,
    warning: `this request is about ${tokens} tokens but the model's context window is ${limit}; Ollama will cut its start (the system prompt and tool descriptions). Raise contextWindow for this provider in config.yaml if the model allows more, or start a new session.`,
  };
}

/**
 * The model's context length as Ollama reports it (`model_info["<arch>.context_length"]`), or
 * undefined when the server cannot be asked (not running, old version, slow).
 */
export async function ollamaContextLength(baseUrl: string, model: string, timeoutMs = 2000): Promise<number | undefined> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/show`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model }), signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { model_info?: Record<string, unknown> };
    for (const [k, v] of Object.entries(body.model_info ?? {})) if (k.endsWith('.context_length') && typeof v === 'number' && v > 0) return v;
  } catch {
    /* unreachable or not Ollama: the configured or default window stands */
  }
  return undefined;
}
