import { providerDisplayName } from '../../../../electron/contract/index';
import { useState } from 'react';
import type { ProviderEntry, ProvidersState } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { errorField, messageOf } from './fields';
import { ProviderForm, type ProviderSubmit } from './ProviderForm';

/** The models the agent can use: config.yaml `providers:` and `defaultProvider`. */
export function Providers({ keys = 0, onKeysChanged = () => {} }: { keys?: number; onKeysChanged?: () => void } = {}) {
  const client = useClient();
  const list = useRequest('settings.providers.list', {});
  const secrets = useRequest('secrets.list', {}, String(keys));
  const [state, setState] = useState<ProvidersState | null>(null);
  const [editing, setEditing] = useState<ProviderEntry | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const data = state ?? list.data;
  const act = async (fn: () => Promise<ProvidersState>) => {
    try {
      setState(await fn());
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const submit = async (s: ProviderSubmit) => {
    try {
      const next = editing && editing !== 'new'
        ? await client.request('settings.providers.update', { id: editing.id, ...s })
        : await client.request('settings.providers.add', s);
      setState(next);
      setEditing(null);
      if (s.key) {
        secrets.reload();
        onKeysChanged();
      }
    } catch (err) {
      throw Object.assign(new Error(messageOf(err)), { field: errorField(err) });
    }
  };
  return (
    <section aria-labelledby="prov-h" className="flex flex-col gap-3" data-testid="providers">
      <h3 id="prov-h" className="font-semibold">Providers and models</h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Kept in <code>{data?.file ?? 'config.yaml'}</code>; each new session reads them. The default is used when a session does not name one (otherwise the first).
      </p>
      {list.status === 'error' && !data ? <ErrorBanner message={`Could not read the providers: ${list.error}`} /> : null}
      <ul className="flex flex-col gap-1" aria-label="Configured providers">
        {data && data.providers.length === 0 ? <li className="text-sm text-slate-600 dark:text-slate-400" data-testid="providers-empty">No provider yet: add one to let the agent work (a local OpenAI-compatible server needs only a base URL and a model).</li> : null}
        {data?.providers.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid={`provider-${p.id}`}>
            <label className="flex items-center gap-1">
              <input type="radio" name="default-provider" checked={data.defaultProvider === p.id} onChange={() => void act(() => client.request('settings.providers.setDefault', { id: p.id }))} aria-label={`Make ${p.id} the default`} />
              <span className="font-medium" data-testid="provider-name">{providerDisplayName(p)}</span> <code className="font-mono text-xs">{p.id}</code>
            </label>
            <span className="text-slate-600 dark:text-slate-400">{p.kind} · {p.model}{p.baseUrl ? ` · ${p.baseUrl}` : ''}{p.apiKey ? ` · key ${p.apiKey}` : ''}</span>
            {data.defaultProvider === p.id ? <span className="rounded bg-indigo-100 px-1 text-xs text-indigo-800 dark:bg-indigo-900 dark:text-indigo-200">default</span> : null}
            <span className="ml-auto flex gap-1">
              <Button variant="ghost" onClick={() => setEditing(p)} aria-label={`Edit ${p.id}`}>Edit</Button>
              <Button variant="ghost" onClick={() => void act(() => client.request('settings.providers.remove', { id: p.id }))} aria-label={`Remove ${p.id}`}>Remove</Button>
            </span>
          </li>
        ))}
      </ul>
      {editing ? (
        <ProviderForm key={editing === 'new' ? 'new' : editing.id} kinds={data?.kinds ?? []} secrets={secrets.data?.names ?? []} editing={editing === 'new' ? undefined : editing} onSubmit={submit} onCancel={() => setEditing(null)} />
      ) : (
        <div><Button onClick={() => setEditing('new')} data-testid="provider-add">Add a provider</Button></div>
      )}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </section>
  );
}
