import { useState, type FormEvent, type ReactNode } from 'react';
import type { ProviderEntry } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { inputClass } from './fields';
import { BUDGET_KINDS, EFFORT_KINDS, EFFORTS, emptyForm, formOf, toRequest, type ProviderFormValues } from './providerForm';

export interface ProviderSubmit {
  provider: ProviderEntry;
  key?: { secret: string; value: string };
}

/**
 * Add or edit one provider. `onSubmit` rejects with the core's message (and the field it names),
 * shown here; the key value is never shown again once saved.
 */
export function ProviderForm({ kinds, secrets, editing, onSubmit, onCancel }: {
  kinds: string[];
  secrets: string[];
  editing?: ProviderEntry;
  onSubmit: (s: ProviderSubmit) => Promise<void>;
  onCancel: () => void;
}) {
  const [v, setV] = useState<ProviderFormValues>(() => (editing ? formOf(editing) : emptyForm(kinds.includes('openai-compatible') ? 'openai-compatible' : kinds[0])));
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof ProviderFormValues) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [k]: e.target.value }));
  const invalid = (k: string) => (error?.field === k ? true : undefined);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const r = toRequest(v, editing);
    if (!r.ok) return setError({ field: r.field, message: r.message });
    setBusy(true);
    try {
      await onSubmit({ provider: r.provider, key: r.key });
      setError(null);
    } catch (err) {
      const field = (err as { field?: string }).field;
      setError({ field: field === 'apiKey' ? 'secretName' : field, message: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  const field = (label: string, input: ReactNode) => (
    <label className="flex flex-col gap-0.5 text-xs">
      {label}
      {input}
    </label>
  );
  const text = (k: keyof ProviderFormValues, placeholder = '', type = 'text') => (
    <input type={type} autoComplete="off" value={String(v[k])} onChange={set(k)} placeholder={placeholder} aria-invalid={invalid(k)} data-testid={`provider-${k}`} className={inputClass} />
  );
  return (
    <form onSubmit={(e) => void submit(e)} aria-label={editing ? `Edit provider ${editing.id}` : 'Add a provider'} className="flex flex-col gap-2 rounded border border-slate-200 p-3 dark:border-slate-700" data-testid="provider-form">
      <div className="grid grid-cols-2 gap-2">
        {field('Id', text('id', 'local'))}
        {field('Name in words (optional: its kind)', text('name', 'LM Studio on this machine'))}
        {field('Kind', (
          <select value={v.kind} onChange={set('kind')} aria-invalid={invalid('kind')} data-testid="provider-kind" className={inputClass}>
            {kinds.map((k) => <option key={k} value={k}>{k}</option>)}
          </select>
        ))}
        {field('Model', text('model', 'qwen3-coder'))}
        {field('Base URL (optional)', text('baseUrl', 'http://127.0.0.1:1234/v1'))}
        {field('Context window in tokens (optional: the catalog’s)', text('contextWindow', '32768'))}
        {field('Longest answer in tokens (optional: the catalog’s)', text('maxOutputTokens', '8192'))}
        {field('Native tool calls', (
          <select value={v.nativeTools} onChange={set('nativeTools')} data-testid="provider-nativeTools" className={inputClass}>
            <option value="">as known for the model</option>
            <option value="true">yes</option>
            <option value="false">no (auto mode uses xml)</option>
          </select>
        ))}
        {EFFORT_KINDS.includes(v.kind)
          ? field('Reasoning effort', (
              <select value={v.reasoningEffort} onChange={set('reasoningEffort')} data-testid="provider-reasoningEffort" className={inputClass}>
                <option value="">the model’s default</option>
                {EFFORTS.map((e) => <option key={e} value={e}>{e}</option>)}
              </select>
            ))
          : null}
        {BUDGET_KINDS.includes(v.kind) ? field(v.kind === 'anthropic' ? 'Thinking budget in tokens (optional; empty: no extended thinking)' : 'Thinking budget in tokens (optional; 0 turns thinking off)', text('thinkingBudget', v.kind === 'anthropic' ? '8000' : '')) : null}
      </div>
      {!EFFORT_KINDS.includes(v.kind) && !BUDGET_KINDS.includes(v.kind) ? <p className="text-xs text-slate-600 dark:text-slate-300" data-testid="provider-no-reasoning">Reasoning settings are not sent to {v.kind} endpoints.</p> : null}
      <fieldset className="grid grid-cols-4 gap-2 text-xs">
        <legend className="col-span-4 mb-1">Prices in US dollars per million tokens (optional: empty uses the bundled catalog’s; used for costs and budgets)</legend>
        {field('Input', text('priceInput', '3'))}
        {field('Output', text('priceOutput', '15'))}
        {field('Cache read', text('priceCacheRead', '0.3'))}
        {field('Cache write', text('priceCacheWrite', '3.75'))}
      </fieldset>
      <fieldset className="flex flex-wrap items-end gap-2 text-xs">
        <legend className="mb-1">API key (kept in the keychain; config.yaml holds only its name)</legend>
        <select value={v.keyMode} onChange={set('keyMode')} aria-label="How to give the API key" data-testid="provider-keyMode" className={inputClass}>
          {editing?.apiKey ? <option value="keep">keep {editing.apiKey}</option> : null}
          <option value="none">no key</option>
          <option value="secret">a key already in the keychain</option>
          <option value="new">save a new key</option>
        </select>
        {v.keyMode === 'secret' ? (
          <select value={v.secretName} onChange={set('secretName')} aria-label="Key name" aria-invalid={invalid('secretName')} data-testid="provider-secretName" className={inputClass}>
            <option value="">choose…</option>
            {secrets.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        ) : null}
        {v.keyMode === 'new' ? (
          <>
            {field('Key name', text('secretName', 'OPENAI_API_KEY'))}
            {field('Key value', text('keyValue', '', 'password'))}
          </>
        ) : null}
      </fieldset>
      {error ? <ErrorBanner message={error.message} onDismiss={() => setError(null)} /> : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={busy} data-testid="provider-save">{editing ? 'Save provider' : 'Add provider'}</Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
