import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';
import { DirtyTreeChoices, dirtyFiles, type DirtyTree } from './DirtyTree';

/**
 * After a finished run: the project's next goal, asked as `erasmus workflow start DIR --goal` does. The new run
 * updates the architecture, schedule and task list for it (finished tasks kept done) and shows the plan for review.
 */
export function NewGoal({ executor, onStart }: { executor: string; onStart: (goal: string, autoApprove: boolean, dirtyTree?: DirtyTree) => Promise<void> }) {
  const [goal, setGoal] = useState('');
  const [unattended, setUnattended] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A project with uncommitted changes: the core refuses until the user chooses what happens to them, as on the first Start.
  const [dirty, setDirty] = useState<string[] | null>(null);
  const agent = executor === 'agent';
  const begin = async (dirtyTree?: DirtyTree) => {
    if (!goal.trim()) return setError('Describe the new goal first.');
    setBusy(true);
    setError(null);
    setDirty(null);
    try {
      await onStart(goal.trim(), agent && unattended, dirtyTree);
    } catch (err) {
      const files = dirtyFiles(err);
      if (files) setDirty(files);
      else setError((err as Error).message);
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    return begin();
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2 rounded border border-indigo-300 p-4 dark:border-indigo-800" data-testid="new-goal">
      <label htmlFor="new-goal-input" className="font-medium">New goal: what should this project do next?</label>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The architecture, schedule and task list are updated for it; finished tasks stay done, and only the new work is developed. You review the plan before development starts.
      </p>
      <textarea
        id="new-goal-input"
        data-testid="new-goal-input"
        rows={3}
        value={goal}
        onChange={(e) => setGoal(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
        placeholder="e.g. subtract two numbers too"
        className="rounded border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
      />
      {agent ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={unattended} onChange={(e) => setUnattended(e.target.checked)} data-testid="new-goal-unattended" />
          Unattended: approve tool calls the command policy does not refuse, without asking
        </label>
      ) : null}
      {dirty ? <DirtyTreeChoices files={dirty} busy={busy} onChoose={(c) => void begin(c)} /> : null}
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div className="flex items-center gap-2">
        <Button type="submit" variant="primary" disabled={busy} data-testid="new-goal-start">
          {busy ? 'Starting…' : 'Start this goal'}
        </Button>
        <span className="text-xs text-slate-600 dark:text-slate-400">Ctrl+Enter</span>
      </div>
    </form>
  );
}
