import { useEffect, useRef } from 'react';
import type { McpToolInfo, ResultOf } from '../../../../electron/contract/index';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { McpIcon } from './McpIcon';

export type Preview = ResultOf<'mcp.server.preview'>;

const hints: Array<[keyof McpToolInfo['annotations'], string, string]> = [
  ['readOnlyHint', 'read-only', 'bg-emerald-100 text-emerald-800'],
  ['destructiveHint', 'destructive', 'bg-red-100 text-red-800'],
  ['idempotentHint', 'idempotent', 'bg-slate-200 text-slate-800'],
  ['openWorldHint', 'open world', 'bg-amber-100 text-amber-800'],
];

/** A started server's tools with the annotations it declared, for the user to judge what it can do. */
export function ToolsWithAnnotations({ server }: { server: string }) {
  const r = useRequest('mcp.tools', { server });
  if (r.status === 'error') return <ErrorBanner message={r.error} />;
  if (!r.data) return <p className="text-xs text-slate-600 dark:text-slate-400">Listing its tools…</p>;
  if (!r.data.tools.length) return <p className="text-xs text-slate-600 dark:text-slate-400">It offers no tools.</p>;
  return (
    <ul className="flex flex-col gap-1" data-testid="trust-tools">
      {r.data.tools.map((t) => (
        <li key={t.name}>
          <span className="inline-flex items-center gap-1 align-middle"><McpIcon icons={t.icons} size={14} /><code className="font-mono">{t.name}</code></span>
          {hints.filter(([k]) => t.annotations[k] === true).map(([k, label, cls]) => <span key={k} className={`ml-1 rounded px-1 ${cls}`}>{label}</span>)}
          {t.annotations.destructiveHint === undefined && t.annotations.readOnlyHint === undefined ? <span className="ml-1 text-slate-600 dark:text-slate-400">(no hints: treated as able to change things)</span> : null}
          <span className="line-clamp-3 block text-slate-600 dark:text-slate-400" title={t.description}>{t.description}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * What a third-party server runs, shown before it is trusted: the exact command, the package, the
 * environment keys it reads; once started, its tools and their annotations.
 */
export function TrustPanel({ preview, started, busy, onTrust, onClose }: { preview: Preview; started: boolean; busy: boolean; onTrust: () => void; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="group"
      aria-label={`Trust ${preview.title}`}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      className="flex flex-col gap-2 rounded border border-amber-400 bg-amber-50 p-3 text-xs focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-amber-700 dark:bg-amber-950"
      data-testid="server-trust-panel"
    >
      <p className="font-medium">{preview.trusted ? `${preview.title} is trusted and runs:` : `Erasmus has not run ${preview.title} before. It will start this program whenever the hub runs:`}</p>
      <pre className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-slate-100" data-testid="trust-command">{[preview.command, ...preview.args].join(' ')}</pre>
      {preview.package ? <p>Package: <code className="font-mono">{preview.package}</code></p> : <p>Package: none named (a local program or script).</p>}
      {preview.envKeys.length ? <p>Environment it gets: {preview.envKeys.map((k) => <code key={k} className="mr-1 font-mono">{k}</code>)}</p> : <p>No environment variables of its own.</p>}
      {preview.hash ? <p className="text-slate-600 dark:text-slate-400">Fingerprint {preview.hash.slice(0, 16)}: if the command or its arguments change, Erasmus asks again.</p> : null}
      {started ? (
        <div>
          <p className="mb-1 font-medium">Its tools:</p>
          <ToolsWithAnnotations server={preview.id} />
        </div>
      ) : null}
      <div className="flex gap-2">
        {!preview.trusted ? <Button variant="primary" disabled={busy} onClick={onTrust} data-testid="server-trust-confirm">{busy ? 'Starting…' : 'Trust and enable'}</Button> : null}
        <Button variant="ghost" onClick={onClose} data-testid="server-trust-close">{preview.trusted ? 'Done' : 'Cancel'}</Button>
      </div>
    </div>
  );
}
