import { useEffect, useState } from 'react';
import { useClient } from '../../api/context';
import { useEvent } from '../../api/useEvent';
import { useRequest } from '../../api/useRequest';
import { ErrorBanner } from '../../ui/ErrorBanner';

const name = (x: Record<string, unknown>) => String(x.name ?? x.uri ?? x.uriTemplate ?? '?');
const desc = (x: Record<string, unknown>) => (typeof x.description === 'string' ? x.description : '');

/**
 * A server's resources and templates; each resource can be watched (resources/subscribe, kept by the
 * hub across restarts), and a watched one shows when the server last said it changed.
 */
export function ServerResources({ server }: { server: string }) {
  const client = useClient();
  const r = useRequest('mcp.resources', { server });
  const [watched, setWatched] = useState<ReadonlySet<string>>(new Set());
  const [updated, setUpdated] = useState<ReadonlyMap<string, Date>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    if (r.data?.subscribed) setWatched(new Set(r.data.subscribed));
  }, [r.data]);
  useEvent('mcp.resource.updated', (e) => {
    if (e.server === server) setUpdated((m) => new Map(m).set(e.uri, new Date()));
  });

  const toggle = async (uri: string, on: boolean) => {
    setBusy(uri);
    setError(null);
    try {
      await client.request(on ? 'mcp.resource.subscribe' : 'mcp.resource.unsubscribe', { server, uri });
      setWatched((s) => {
        const next = new Set(s);
        if (on) next.add(uri);
        else next.delete(uri);
        return next;
      });
    } catch (e) {
      setError(`Could not ${on ? 'watch' : 'stop watching'} ${uri}: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  };

  if (r.status === 'error') return <ErrorBanner message={r.error} />;
  if (!r.data) return <p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>;
  const { resources, templates } = r.data;
  if (!resources.length && !templates.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No resources.</p>;
  return (
    <div className="flex flex-col gap-1">
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      <ul className="flex flex-col gap-1 text-sm" data-testid="server-resources">
        {resources.map((x, i) => {
          const uri = String(x.uri ?? '');
          const at = updated.get(uri);
          return (
            <li key={`r${i}`} className="flex flex-wrap items-baseline gap-x-2">
              <code className="font-mono">{name(x)}</code>
              <span className="text-xs text-slate-600 dark:text-slate-400">{desc(x)}</span>
              {uri ? (
                <label className="ml-auto flex items-center gap-1 text-xs">
                  <input type="checkbox" checked={watched.has(uri)} disabled={busy === uri} onChange={(e) => void toggle(uri, e.target.checked)} aria-label={`Watch ${uri}`} />
                  watch
                </label>
              ) : null}
              {at && watched.has(uri) ? (
                <span role="status" className="w-full text-xs text-emerald-700 dark:text-emerald-400">
                  changed at {at.toLocaleTimeString()}
                </span>
              ) : null}
            </li>
          );
        })}
        {templates.map((x, i) => (
          <li key={`t${i}`}>
            <code className="font-mono">{name(x)}</code> <span className="text-xs text-slate-600 dark:text-slate-400">{desc(x)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
