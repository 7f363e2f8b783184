import { previewOf } from './approvalPreview';

/** Exactly what an approval will do: the command line, the diff of a file write, or the arguments. */
export function ApprovalPreview({ name, args }: { name: string; args: Record<string, unknown> }) {
  const p = previewOf(name, args);
  if (p.kind === 'command') {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-xs text-slate-500">Will run{p.cwd ? ` in ${p.cwd}` : ''}:</span>
        <pre className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-sm text-slate-100" data-testid="approval-command">{p.command}</pre>
        {p.original ? <span className="text-xs text-slate-500">rewritten from <code className="font-mono">{p.original}</code></span> : null}
      </div>
    );
  }
  if (p.kind === 'write') {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-xs text-slate-500">Will change <code className="font-mono">{p.path}</code>:</span>
        <pre className="max-h-72 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100" data-testid="approval-diff">
          {p.lines.map((l, i) => (
            <div key={i} className={l.op === '+' ? 'text-emerald-400' : l.op === '-' ? 'text-red-400' : ''}>
              {l.op} {l.text}
            </div>
          ))}
        </pre>
      </div>
    );
  }
  return <pre className="max-h-60 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">{p.json}</pre>;
}
