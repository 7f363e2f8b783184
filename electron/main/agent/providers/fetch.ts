import type { Agent, fetch as undiciFetch } from 'undici';

/**
 * How long a provider request may wait. Node's fetch gives up after 300 s without response headers (and
 * 300 s of silence in a body), then the SDK sends the same request again: a local model on a slow machine
 * (Ollama on a CPU reading a long prompt) starts its answer later than that, so its answer was thrown away
 * and the prompt read again. A request now waits as a user would (they can stop the run at any time).
 */
export const PROVIDER_TIMEOUTS = { headersTimeoutMs: 30 * 60_000, bodyTimeoutMs: 10 * 60_000 };

export type ProviderFetch = typeof globalThis.fetch;

/**
 * A fetch for the providers' SDKs with the given waits (one connection pool per call of this function).
 * undici is imported at the first request, not at start: loading it costs every CLI start about 0.1 CPU-s,
 * and most commands never ask a model.
 */
export function makeProviderFetch(t: { headersTimeoutMs: number; bodyTimeoutMs: number } = PROVIDER_TIMEOUTS): ProviderFetch {
  let pool: Promise<{ dispatcher: Agent; fetch: typeof undiciFetch }> | undefined;
  const load = () =>
    (pool ??= import('undici').then(({ Agent, fetch }) => ({ dispatcher: new Agent({ headersTimeout: t.headersTimeoutMs, bodyTimeout: t.bodyTimeoutMs }), fetch })));
  return (async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
    const { dispatcher, fetch } = await load();
    return fetch(input, { ...init, dispatcher });
  }) as unknown as ProviderFetch;
}

let shared: ProviderFetch | undefined;
/** The providers' fetch: one pool for the process. */
export function providerFetch(): ProviderFetch {
  return (shared ??= makeProviderFetch());
}
