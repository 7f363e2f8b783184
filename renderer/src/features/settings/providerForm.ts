import type { ProviderEntry } from '../../../../electron/contract/index';

/** The provider form's fields as typed (strings), and how the key is given. */
export interface ProviderFormValues {
  id: string;
  kind: string;
  model: string;
  baseUrl: string;
  contextWindow: string;
  /** '' (model default), 'true', 'false' */
  nativeTools: string;
  /** none: no key; secret: an existing keychain name; new: a key to save now; keep: leave apiKey as it is */
  keyMode: 'none' | 'secret' | 'new' | 'keep';
  secretName: string;
  keyValue: string;
}

export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

export function emptyForm(kind = 'openai-compatible'): ProviderFormValues {
  return { id: '', kind, model: '', baseUrl: '', contextWindow: '', nativeTools: '', keyMode: 'none', secretName: '', keyValue: '' };
}

export function formOf(p: ProviderEntry): ProviderFormValues & { keptApiKey?: string } {
  return {
    id: p.id,
    kind: p.kind,
    model: p.model,
    baseUrl: p.baseUrl ?? '',
    contextWindow: p.contextWindow !== undefined ? String(p.contextWindow) : '',
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
  const provider: ProviderEntry = { id: v.id.trim(), kind: v.kind, model: v.model.trim() };
  if (v.baseUrl.trim()) provider.baseUrl = v.baseUrl.trim();
  if (cw) provider.contextWindow = Number(cw);
  if (v.nativeTools) provider.nativeTools = v.nativeTools === 'true';
  if (kept?.headers) provider.headers = kept.headers;
  if (kept?.pricing) provider.pricing = kept.pricing;
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
