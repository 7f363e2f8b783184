import { useState } from 'react';
import type { McpServerStatus } from '../../../../electron/contract/index';
import { useRequest } from '../../api/useRequest';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { ServerResources } from './ServerResources';

type Tab = 'tools' | 'resources' | 'prompts' | 'log';
const name = (x: Record<string, unknown>) => String(x.name ?? x.uri ?? x.uriTemplate ?? '?');
const desc = (x: Record<string, unknown>) => (typeof x.description === 'string' ? x.description : '');

function Tools({ server }: { server: string }) {
  const r = useRequest('mcp.tools', { server });
  if (r.status === 'error') return <ErrorBanner message={r.error} />;
  if (!r.data) return <p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>;
  if (!r.data.tools.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No tools.</p>;
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="server-tools">
      {r.data.tools.map((t) => (
        <li key={t.name}>
          <code className="font-mono">{t.name}</code>
          {t.annotations.destructiveHint ? <span className="ml-1 rounded bg-red-100 px-1 text-xs text-red-700">destructive</span> : null}
          {t.annotations.readOnlyHint ? <span className="ml-1 rounded bg-emerald-100 px-1 text-xs text-emerald-700">read-only</span> : null}
          {t.alwaysAllow ? <span className="ml-1 rounded bg-slate-200 px-1 text-xs dark:bg-slate-700">always allowed</span> : null}
          <span className="block text-xs text-slate-600 dark:text-slate-400">{t.description}</span>
        </li>
      ))}
    </ul>
  );
}

function Prompts({ server }: { server: string }) {
  const r = useRequest('mcp.prompts', { server });
  if (r.status === 'error') return <ErrorBanner message={r.error} />;
  if (!r.data) return <p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p>;
  if (!r.data.prompts.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No prompts.</p>;
  return <ul className="text-sm">{r.data.prompts.map((x, i) => <li key={i}><code className="font-mono">{name(x)}</code> <span className="text-xs text-slate-600 dark:text-slate-400">{desc(x)}</span></li>)}</ul>;
}

/** A server's tools, resources, prompts and stderr log, one tab each. */
export function ServerDetails({ server, log }: { server: McpServerStatus; log: string[] }) {
  const [tab, setTab] = useState<Tab>('tools');
  const ready = server.state === 'ready';
  return (
    <div className="flex flex-col gap-2" data-testid="server-details">
      {server.signInUrl && /^https?:\/\//.test(server.signInUrl) ? (
        <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm dark:border-amber-700 dark:bg-amber-950" data-testid="server-sign-in">
          {server.name} asks you to sign in.{' '}
          <a href={server.signInUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-indigo-600 underline">
            Sign in
          </a>{' '}
          — Erasmus connects as soon as the browser comes back.
        </p>
      ) : null}
      <div role="tablist" aria-label={`${server.name} details`} className="flex gap-1 border-b border-slate-200 dark:border-slate-800">
        {(['tools', 'resources', 'prompts', 'log'] as const).map((t) => (
          <button key={t} role="tab" type="button" aria-selected={tab === t} onClick={() => setTab(t)} className={`px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${tab === t ? 'border-b-2 border-indigo-500 font-medium' : 'text-slate-600 dark:text-slate-400'}`}>
            {t === 'log' ? 'stderr' : t}
          </button>
        ))}
      </div>
      {tab === 'log' ? (
        <pre className="max-h-80 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100" data-testid="server-log">{log.length ? log.join('\n') : '(nothing on stderr)'}</pre>
      ) : !ready ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">The server is {server.state}: its {tab} are listed once it is ready.</p>
      ) : tab === 'tools' ? <Tools server={server.name} /> : tab === 'resources' ? <ServerResources server={server.name} /> : <Prompts server={server.name} />}
    </div>
  );
}
