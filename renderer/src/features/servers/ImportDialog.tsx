import { useEffect, useRef, useState } from 'react';
import type { McpImportCandidate } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorBanner } from '../../ui/ErrorBanner';

const appName: Record<McpImportCandidate['source'], string> = { claude: 'Claude Desktop', cursor: 'Cursor', vscode: 'VS Code', roo: 'Roo Code', goose: 'goose' };
const key = (file: string, name: string) => `${file}\u0000${name}`;

/**
 * Another app's MCP servers (what the core found in Claude Desktop's, Cursor's, VS Code's, Roo's and
 * goose's configs): pick which to add. A name already configured is never overwritten.
 */
export function ImportDialog({ onImported, onClose }: { onImported: (added: string[]) => void; onClose: () => void }) {
  const client = useClient();
  const found = useRequest('mcp.import.discover', {});
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ added: string[]; skipped: string[] } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const candidates = found.data?.candidates ?? [];
  const toggle = (k: string) => setPicked((s) => (s.has(k) ? new Set([...s].filter((x) => x !== k)) : new Set([...s, k])));

  const importPicked = async () => {
    setBusy(true);
    setError(null);
    const all = { added: [] as string[], skipped: [] as string[] };
    try {
      for (const c of candidates) {
        const names = c.servers.filter((s) => picked.has(key(c.file, s.name))).map((s) => s.name);
        if (!names.length) continue;
        const r = await client.request('mcp.import', { file: c.file, names });
        all.added.push(...r.added);
        all.skipped.push(...r.skipped);
      }
      setResult(all);
      setPicked(new Set());
      found.reload();
      onImported(all.added);
    } catch (e) {
      setError(`Import failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="import-h" className="flex max-w-2xl flex-col gap-3" data-testid="import-dialog" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <h3 id="import-h" ref={heading} tabIndex={-1} className="text-lg font-semibold focus-visible:outline-2 focus-visible:outline-indigo-500">Import servers from another app</h3>
      <ErrorBanner message={found.status === 'error' ? `Could not look for other apps' configs: ${found.error}` : error} onDismiss={() => setError(null)} />
      {result ? (
        <p role="status" className="text-sm" data-testid="import-result">
          {result.added.length ? `Added ${result.added.join(', ')} (disabled until you enable and trust each one).` : 'Nothing was added.'}
          {result.skipped.length ? ` Already configured, left as they were: ${result.skipped.join(', ')}.` : ''}
        </p>
      ) : null}
      {!found.data ? (
        found.status === 'loading' ? <p className="text-sm text-slate-600 dark:text-slate-400">Looking…</p> : null
      ) : candidates.length === 0 ? (
        <EmptyState title="No other app's MCP config found" testId="import-empty">
          Erasmus looked for Claude Desktop, Cursor, goose and, in the open project, VS Code’s, Cursor’s and Roo’s <code>mcp.json</code>.
        </EmptyState>
      ) : (
        candidates.map((c) => (
          <fieldset key={c.file} className="flex flex-col gap-1 rounded border border-slate-200 p-2 dark:border-slate-800" data-testid={`import-source-${c.source}`}>
            <legend className="px-1 text-sm font-medium">{appName[c.source]} <span className="font-mono text-xs font-normal text-slate-600 dark:text-slate-400">{c.file}</span></legend>
            {c.servers.map((s) => (
              <label key={s.name} className={`flex items-start gap-2 text-sm ${s.exists ? 'text-slate-400' : ''}`}>
                <input
                  type="checkbox"
                  disabled={s.exists}
                  checked={picked.has(key(c.file, s.name))}
                  onChange={() => toggle(key(c.file, s.name))}
                  className="mt-1 focus-visible:outline-2 focus-visible:outline-indigo-500"
                  data-testid={`import-pick-${s.name}`}
                />
                <span className="min-w-0">
                  <span className="font-medium">{s.name}</span>
                  {s.exists ? <span className="ml-1 text-xs">(already configured: left as it is)</span> : null}
                  <code className="block truncate font-mono text-xs text-slate-600 dark:text-slate-400">{s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : `${s.transport} ${s.url ?? ''}`}</code>
                  {s.envKeys.length ? <span className="block text-xs text-slate-600 dark:text-slate-400">{s.transport === 'stdio' ? 'env' : 'headers'}: {s.envKeys.join(', ')}</span> : null}
                </span>
              </label>
            ))}
            {c.issues.map((i, k) => <p key={k} className="text-xs text-amber-700 dark:text-amber-400">{i.entry ? `${i.entry}: ` : ''}{i.message}</p>)}
          </fieldset>
        ))
      )}
      <div className="flex gap-2">
        <Button variant="primary" disabled={busy || picked.size === 0} onClick={() => void importPicked()} data-testid="import-submit">{busy ? 'Importing…' : `Import ${picked.size || ''} selected`.replace('  ', ' ')}</Button>
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </div>
    </section>
  );
}
