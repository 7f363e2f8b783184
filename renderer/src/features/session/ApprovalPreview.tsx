import { useEffect, useState } from 'react';
import { useClient } from '../../api/context';
import { previewOf } from './approvalPreview';

type Current = { state: 'loading' } | { state: 'new' } | { state: 'text'; text: string } | { state: 'unknown'; reason: string };

/** The file as it is on disk, read by the core, for the diff of a whole-file write. */
function useCurrentText(path: string | undefined): Current {
  const client = useClient();
  const [current, setCurrent] = useState<Current>({ state: 'loading' });
  useEffect(() => {
    if (!path) return;
    let live = true;
    client.request('project.fileText', { path }).then(
      (r) => live && setCurrent(!r.exists ? { state: 'new' } : r.text === null ? { state: 'unknown', reason: r.reason ?? 'unreadable' } : { state: 'text', text: r.text }),
      (e: Error) => live && setCurrent({ state: 'unknown', reason: e.message }),
    );
    return () => {
      live = false;
    };
  }, [client, path]);
  return current;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Exactly what an approval will do: the command line, the diff of a file write, or the arguments. */
export function ApprovalPreview({ name, args, live = true }: { name: string; args: Record<string, unknown>; /** Still waiting: the file on disk is the one the write replaces. */ live?: boolean }) {
  const bare = previewOf(name, args);
  const needsCurrent = live && bare.kind === 'write' && !!bare.overwrite && str(args.previous) === undefined;
  const current = useCurrentText(needsCurrent && bare.kind === 'write' ? bare.path : undefined);
  const p = needsCurrent && current.state === 'text' ? previewOf(name, args, current.text) : bare;
  if (p.kind === 'command') {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-xs text-slate-600 dark:text-slate-400">Will run{p.cwd ? ` in ${p.cwd}` : ''}:</span>
        <pre className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-sm text-slate-100" data-testid="approval-command">{p.command}</pre>
        {p.original ? <span className="text-xs text-slate-600 dark:text-slate-400">rewritten from <code className="font-mono">{p.original}</code></span> : null}
      </div>
    );
  }
  if (p.kind === 'write') {
    const note = !needsCurrent ? null : current.state === 'loading' ? 'reading the current file…' : current.state === 'new' ? 'a new file' : current.state === 'unknown' ? `replaces the whole file (${current.reason})` : 'changes against the file on disk';
    return (
      <div className="flex flex-col gap-1">
        <span className="text-xs text-slate-600 dark:text-slate-400">
          Will {needsCurrent && current.state === 'new' ? 'create' : 'change'} <code className="font-mono">{p.path}</code>
          {note ? <span data-testid="approval-diff-note"> — {note}</span> : null}:
        </span>
        <pre className="max-h-72 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100" data-testid="approval-diff" data-ready={!needsCurrent || current.state !== 'loading'}>
          {p.lines.map((l, i) => (
            <div key={i} className={l.op === '+' ? 'text-emerald-300' : l.op === '-' ? 'text-red-300' : 'text-slate-300'}>
              {l.op} {l.text}
            </div>
          ))}
        </pre>
      </div>
    );
  }
  return <pre className="max-h-60 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">{p.json}</pre>;
}
