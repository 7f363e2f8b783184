import type { ProviderEntry } from '../../../../electron/contract/index';

/** The provider form's fields as typed (strings), and how the key is given. */
export interface ProviderFormValues {
  id: string;
  /** The name in words ('' = its kind in words). */
  name: string;
  kind: string;
  model: string;
  baseUrl: string;
  contextWindow: string;
  maxOutputTokens: string;
  /** '' (the model's default) or an effort level (openai, openrouter). */
  reasoningEffort: string;
  /** Thinking budget in tokens (anthropic, google, openrouter; 0 turns thinking off on google and ollama). */
  thinkingBudget: string;
  /** USD per million tokens; '' = the bundled catalog's price. */
  priceInput: string;
  priceOutput: string;
  priceCacheRead: string;
  priceCacheWrite: string;
  /** '' (model default), 'true', 'false' */
  nativeTools: string;
  /** none: no key; secret: an existing keychain name; new: a key to save now; keep: leave apiKey as it is */
  keyMode: 'none' | 'secret' | 'new' | 'keep';
  secretName: string;
  keyValue: string;
}

/** Which kinds take a reasoning effort, and which a thinking budget (what the provider plugins send). */
export const EFFORT_KINDS = ['openai', 'openrouter'];
export const BUDGET_KINDS = ['anthropic', 'google', 'openrouter', 'ollama'];
export const EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;

export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

export function emptyForm(kind = 'openai-compatible'): ProviderFormValues {
  return { id: '', name: '', kind, model: '', baseUrl: '', contextWindow: '', maxOutputTokens: '', reasoningEffort: '', thinkingBudget: '', priceInput: '', priceOutput: '', priceCacheRead: '', priceCacheWrite: '', nativeTools: '', keyMode: 'none', secretName: '', keyValue: '' };
}

export function formOf(p: ProviderEntry): ProviderFormValues & { keptApiKey?: string } {
  return {
    id: p.id,
    name: p.name ?? '',
    kind: p.kind,
    model: p.model,
    baseUrl: p.baseUrl ?? '',
    contextWindow: p.contextWindow !== undefined ? String(p.contextWindow) : '',
    maxOutputTokens: p.maxOutputTokens !== undefined ? String(p.maxOutputTokens) : '',
    reasoningEffort: p.reasoning?.effort ?? '',
    thinkingBudget: p.reasoning?.budgetTokens !== undefined ? String(p.reasoning.budgetTokens) : '',
    priceInput: p.pricing ? String(p.pricing.input) : '',
    priceOutput: p.pricing ? String(p.pricing.output) : '',
    priceCacheRead: p.pricing?.cacheRead !== undefined ? String(p.pricing.cacheRead) : '',
    priceCacheWrite: p.pricing?.cacheWrite !== undefined ? String(p.pricing.cacheWrite) : '',
    nativeTools: p.nativeTools === undefined ? '' : String(p.nativeTools),
    keyMode: p.apiKey ? 'keep' : 'none',
    secretName: '',
    keyValue: '',
    keptApiKey: p.apiKey,
  };
}

export type FormResult =
  | { ok: true; provider: ProviderEntry; key?: { secret: string; value: string } }
  | { ok: false; field: keyof ProviderFormValues; message: string };

/** Checks what the form can check itself; the core checks the rest with the agent's schema. */
export function toRequest(v: ProviderFormValues, kept?: ProviderEntry): FormResult {
  if (!v.id.trim()) return { ok: false, field: 'id', message: 'Give the provider an id (e.g. local, openai).' };
  if (!v.model.trim()) return { ok: false, field: 'model', message: 'Give the model name (e.g. gpt-4.1, qwen3-coder).' };
  const cw = v.contextWindow.trim();
  if (cw && !/^[1-9][0-9]*$/.test(cw)) return { ok: false, field: 'contextWindow', message: 'The context window is a whole number of tokens.' };
  const mo = v.maxOutputTokens.trim();
  if (mo && !/^[1-9][0-9]*$/.test(mo)) return { ok: false, field: 'maxOutputTokens', message: 'The longest answer is a whole number of tokens.' };
  const budget = BUDGET_KINDS.includes(v.kind) ? v.thinkingBudget.trim() : '';
  if (budget && !/^(0|[1-9][0-9]*)$/.test(budget)) return { ok: false, field: 'thinkingBudget', message: 'The thinking budget is a whole number of tokens (0 turns thinking off where the provider allows it).' };
  const effort = EFFORT_KINDS.includes(v.kind) ? v.reasoningEffort : '';
  const price = (k: 'priceInput' | 'priceOutput' | 'priceCacheRead' | 'priceCacheWrite') => {
    const t = v[k].trim();
    return t === '' ? undefined : /^(0|[1-9][0-9]*)(\.[0-9]+)?$|^0?\.[0-9]+$/.test(t) ? Number(t) : NaN;
  };
  const prices = { input: price('priceInput'), output: price('priceOutput'), cacheRead: price('priceCacheRead'), cacheWrite: price('priceCacheWrite') };
  const badPrice = (Object.keys(prices) as (keyof typeof prices)[]).find((k) => Number.isNaN(prices[k]));
  if (badPrice) return { ok: false, field: `price${badPrice[0]!.toUpperCase()}${badPrice.slice(1)}` as keyof ProviderFormValues, message: 'A price is a number of US dollars per million tokens (e.g. 3 or 0.3).' };
  const anyPrice = Object.values(prices).some((x) => x !== undefined);
  if (anyPrice && (prices.input === undefined || prices.output === undefined))
    return { ok: false, field: prices.input === undefined ? 'priceInput' : 'priceOutput', message: 'Your own prices need at least the input and output price (cache prices are optional); leave all four empty for the catalog’s.' };
  const provider: ProviderEntry = { id: v.id.trim(), kind: v.kind, model: v.model.trim() };
  if (v.name.trim()) provider.name = v.name.trim();
  if (v.baseUrl.trim()) provider.baseUrl = v.baseUrl.trim();
  if (cw) provider.contextWindow = Number(cw);
  if (mo) provider.maxOutputTokens = Number(mo);
  if (v.nativeTools) provider.nativeTools = v.nativeTools === 'true';
  if (effort || budget) provider.reasoning = { ...(effort ? { effort: effort as (typeof EFFORTS)[number] } : {}), ...(budget ? { budgetTokens: Number(budget) } : {}) };
  if (anyPrice)
    provider.pricing = { input: prices.input!, output: prices.output!, ...(prices.cacheRead !== undefined ? { cacheRead: prices.cacheRead } : {}), ...(prices.cacheWrite !== undefined ? { cacheWrite: prices.cacheWrite } : {}) };
  if (kept?.headers) provider.headers = kept.headers;
  if (kept?.store !== undefined) provider.store = kept.store;
  if (v.keyMode === 'keep' && kept?.apiKey) provider.apiKey = kept.apiKey;
  if (v.keyMode === 'secret' || v.keyMode === 'new') {
    if (!SECRET_NAME.test(v.secretName)) return { ok: false, field: 'secretName', message: 'A key name is letters, digits, _ . - and starts with a letter or _ (e.g. OPENAI_API_KEY).' };
    if (v.keyMode === 'secret') provider.apiKey = `\${secret:${v.secretName}}`;
    else {
      if (!v.keyValue) return { ok: false, field: 'keyValue', message: 'Paste the key, or choose a key already in the keychain.' };
      return { ok: true, provider, key: { secret: v.secretName, value: v.keyValue } };
    }
  }
  return { ok: true, provider };
}
