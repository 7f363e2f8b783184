import { useState, type FormEvent } from 'react';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { humanState } from './labels';

/**
 * A blocked step's answer box: the user's words go with Retry step (`workflow.retry` with `answer`), and the step run
 * again hears them (what it stopped to ask, or how to go on). Shown only where a step ran and stopped at `state` (the run's,
 * or a blocked side-by-side component's): a step that never ran asked nothing. The same as `erasmus workflow retry <dir> --answer TEXT`.
 * The run panel holds the text (`answer`, `onAnswer`): its Retry step sends it too when the box is not empty, so words typed
 * are never dropped; a component's card keeps its own.
 */
export function RetryAnswer(props: { view: WorkflowRunView; state?: string | undefined; component?: string; answer?: string; onAnswer?: (text: string) => void; onRetry: (answer: string) => Promise<void> }) {
  const { view, state = view.state, component, onRetry } = props;
  const [own, setOwn] = useState('');
  const answer = props.answer ?? own;
  const onAnswer = props.onAnswer ?? setOwn;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ran = state !== undefined && view.timeline.some((e) => e.state === state && e.leftAt && !e.rewound && e.outcome !== 'skipped');
  if (!ran || !state) return null;
  const id = `retry-answer-text${component ? `-${component}` : ''}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) return setError('Write the answer first, or use Retry step to run it again without one.');
    setBusy(true);
    setError(null);
    try {
      await onRetry(answer.trim());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2" data-testid="retry-answer">
      <label htmlFor={id} className="text-sm font-medium">Your answer to {humanState(state)}</label>
      <textarea
        id={id}
        data-testid="retry-answer-input"
        rows={3}
        value={answer}
        onChange={(e) => onAnswer(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
        aria-describedby={`${id}-help`}
        className="rounded border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
      />
      <p id={`${id}-help`} className="text-xs text-slate-600 dark:text-slate-400">The step runs again and hears this with its retry: answer what it asked, or say how to go on.</p>
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="retry-answer-submit">
          {busy ? 'Retrying…' : 'Retry with this answer'}
        </Button>
      </div>
    </form>
  );
}
