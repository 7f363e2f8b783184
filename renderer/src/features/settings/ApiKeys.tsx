import { useState, type FormEvent } from 'react';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** API keys in the OS keychain: written here, listed by name, never read back. */
export function ApiKeys({ keys = 0, onKeysChanged = () => {} }: { keys?: number; onKeysChanged?: () => void } = {}) {
  const client = useClient();
  const list = useRequest('secrets.list', {}, String(keys));
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(null);
    if (!NAME.test(name)) return setError('A key name is letters, digits, _ . - and starts with a letter or _ (e.g. OPENAI_API_KEY).');
    if (!value) return setError('Paste the key value first.');
    try {
      await client.request('secrets.set', { name, value });
      setValue('');
      setSaved(`${name} saved to the keychain. Refer to it in config as \${secret:${name}}.`);
      setName('');
      setError(null);
      list.reload();
      onKeysChanged();
    } catch (err) {
      setError(`Could not save ${name}: ${(err as Error).message}`);
    }
  };
  const remove = async (n: string) => {
    try {
      await client.request('secrets.delete', { name: n });
      list.reload();
      onKeysChanged();
    } catch (err) {
      setError(`Could not delete ${n}: ${(err as Error).message}`);
    }
  };
  return (
    <section aria-labelledby="keys-h" className="flex flex-col gap-3" data-testid="api-keys">
      <h3 id="keys-h" className="font-semibold">API keys</h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">Stored in the system keychain. Once saved, a key is never shown again: replace it by saving the same name.</p>
      {list.status === 'error' ? <ErrorBanner message={`The keychain is not available: ${list.error}`} /> : null}
      <ul className="flex flex-col gap-1" aria-label="Saved keys">
        {list.data?.names.length === 0 ? <li className="text-sm text-slate-600 dark:text-slate-400">No keys saved yet.</li> : null}
        {list.data?.names.map((n) => (
          <li key={n} className="flex items-center gap-2 text-sm" data-testid={`secret-${n}`}>
            <code className="font-mono">{n}</code>
            <span className="text-slate-600 dark:text-slate-400" aria-label="hidden value">••••••••</span>
            <Button variant="ghost" className="ml-auto" onClick={() => void remove(n)} aria-label={`Delete ${n}`}>Delete</Button>
          </li>
        ))}
      </ul>
      <form onSubmit={(e) => void submit(e)} className="flex flex-wrap items-end gap-2" aria-label="Save an API key">
        <label className="flex flex-col text-xs">Name
          <input value={name} onChange={(e) => setName(e.target.value)} data-testid="secret-name" placeholder="OPENAI_API_KEY" className="rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm dark:border-slate-600 dark:bg-slate-900" />
        </label>
        <label className="flex flex-1 flex-col text-xs">Value
          <input type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} data-testid="secret-value" className="rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm dark:border-slate-600 dark:bg-slate-900" />
        </label>
        <Button type="submit" variant="primary" data-testid="secret-save">Save key</Button>
      </form>
      {saved ? <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">{saved}</p> : null}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </section>
  );
}
