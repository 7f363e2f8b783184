import { useState } from 'react';

export type RewindScope = 'both' | 'code' | 'conversation';
const CHOICES: Array<[RewindScope, string]> = [
  ['both', 'Code and conversation'],
  ['code', 'Code only (the conversation goes on)'],
  ['conversation', 'Conversation only (the files stay)'],
];

/** "Rewind to here" on a user message: back to before it, with the choice of code, conversation or both, after a confirmation. */
export function RewindMessage({ turn, onRewind }: { turn: number; onRewind: (turn: number, scope: RewindScope) => Promise<string> }) {
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<RewindScope>('both');
  const [state, setState] = useState<{ kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; text: string } | { kind: 'error'; text: string }>({ kind: 'idle' });
  const go = () => {
    setState({ kind: 'busy' });
    onRewind(turn, scope).then(
      (text) => {
        setState({ kind: 'done', text });
        setOpen(false);
      },
      (err: Error) => setState({ kind: 'error', text: err.message }),
    );
  };
  return (
    <div className="self-end text-xs" data-testid="rewind-message">
      {!open ? (
        <button type="button" onClick={() => setOpen(true)} data-testid="rewind-message-open" className="text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300">
          Rewind to here
        </button>
      ) : (
        <fieldset className="rounded border border-amber-500 p-2" data-testid="rewind-message-choices">
          <legend className="px-1 font-medium">Rewind to before this message</legend>
          {CHOICES.map(([value, label]) => (
            <label key={value} className="flex items-center gap-1">
              <input type="radio" name={`rewind-${turn}`} value={value} checked={scope === value} onChange={() => setScope(value)} />
              {label}
            </label>
          ))}
          <div className="mt-1 flex gap-2">
            <button type="button" onClick={go} disabled={state.kind === 'busy'} data-testid="rewind-message-confirm" className="rounded bg-amber-700 px-2 py-0.5 text-white focus-visible:outline-2 focus-visible:outline-indigo-500">Rewind</button>
            <button type="button" onClick={() => setOpen(false)} className="rounded border border-slate-300 px-2 py-0.5 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700">Cancel</button>
          </div>
        </fieldset>
      )}
      {state.kind === 'done' ? <p role="status" data-testid="rewind-message-done">{state.text}</p> : null}
      {state.kind === 'error' ? <p role="alert" className="text-red-700 dark:text-red-300">Could not rewind: {state.text}</p> : null}
    </div>
  );
}
