import { useState } from 'react';
import type { ResultOf } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';

type Preview = ResultOf<'mcp.catalog.enable'>['preview'];

/** What enabling a server will run, shown before the user trusts it. */
function TrustPreview({ preview, onTrust, onCancel, busy }: { preview: Preview; onTrust: () => void; onCancel: () => void; busy: boolean }) {
  return (
    <div className="mt-2 flex flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-2 text-xs dark:border-amber-700 dark:bg-amber-950" data-testid="trust-preview">
      <p className="font-medium">Erasmus will start this program whenever the hub runs:</p>
      <pre className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-slate-100">{[preview.command, ...preview.args].join(' ')}</pre>
      {preview.package ? <p>Package: <code className="font-mono">{preview.package}</code></p> : null}
      {preview.envKeys.length ? <p>It reads: {preview.envKeys.map((k) => <code key={k} className="mr-1 font-mono">{k}</code>)} (set them as API keys in Settings).</p> : null}
      <p className="text-slate-600 dark:text-slate-400">Fingerprint {preview.hash.slice(0, 16)}: if the command changes, Erasmus asks again.</p>
      <div className="flex gap-2">
        <Button variant="primary" disabled={busy} onClick={onTrust} data-testid="trust-enable">Trust and enable</Button>
        <Button variant="ghost" onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}

/** The servers the product suggests: enable one (after seeing and trusting what it runs). */
export function Catalog({ enabledNames, disabledNames = new Set() }: { enabledNames: ReadonlySet<string>; disabledNames?: ReadonlySet<string> }) {
  const client = useClient();
  const catalog = useRequest('mcp.catalog', {});
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const enable = async (id: string, trust?: boolean) => {
    setBusy(id);
    setError(null);
    try {
      const r = await client.request('mcp.catalog.enable', { id, ...(trust ? { trust } : {}) });
      setPreview(r.enabled ? null : r.preview);
      if (r.enabled) catalog.reload();
    } catch (e) {
      setError(`Could not enable ${id}: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  };
  if (catalog.status === 'error') return <ErrorBanner message={`The catalog is not available: ${catalog.error}`} />;
  const servers = catalog.data?.servers ?? [];
  if (!servers.length) return null;
  return (
    <section aria-labelledby="catalog-h" className="flex flex-col gap-1" data-testid="catalog">
      <h3 id="catalog-h" className="mt-3 text-sm font-semibold">Suggested servers</h3>
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      <ul className="flex flex-col gap-1">
        {servers.map((s) => (
          <li key={s.id} className="rounded border border-slate-200 p-2 text-sm dark:border-slate-800" data-testid={`catalog-${s.id}`}>
            <div className="flex items-center gap-2">
              <span className="flex-1 font-medium">{s.title}</span>
              {enabledNames.has(s.id) ? <span className="text-xs text-emerald-700 dark:text-emerald-300">enabled</span> : disabledNames.has(s.id) ? <span className="text-xs text-slate-600 dark:text-slate-400">in your list, disabled</span> : (
                <Button disabled={busy !== null} onClick={() => void enable(s.id)} data-testid={`catalog-enable-${s.id}`}>Enable…</Button>
              )}
            </div>
            <p className="text-xs text-slate-600 dark:text-slate-400">{s.description}</p>
            {preview?.id === s.id ? <TrustPreview preview={preview} busy={busy !== null} onTrust={() => void enable(s.id, true)} onCancel={() => setPreview(null)} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
