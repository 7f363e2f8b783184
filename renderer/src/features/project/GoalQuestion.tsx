import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';

/** The workflow's first question when the project has no architecture document: what should be built? */
export function GoalQuestion({ onAnswer }: { onAnswer: (goal: string) => Promise<void> }) {
  const [goal, setGoal] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!goal.trim()) return setError('Describe what to build first.');
    setBusy(true);
    setError(null);
    try {
      await onAnswer(goal.trim());
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2 rounded border border-indigo-300 bg-indigo-50 p-4 dark:border-indigo-800 dark:bg-indigo-950" data-testid="goal-question">
      <label htmlFor="goal" className="font-medium">What should Erasmus build in this project?</label>
      <textarea
        id="goal"
        data-testid="goal-input"
        rows={4}
        value={goal}
        onChange={(e) => setGoal(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
        placeholder="e.g. a function that adds two numbers, with tests"
        className="rounded border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
      />
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div className="flex items-center gap-2">
        <Button type="submit" variant="primary" disabled={busy} data-testid="goal-submit">
          {busy ? 'Sending…' : 'Answer'}
        </Button>
        <span className="text-xs text-slate-600 dark:text-slate-400">Ctrl+Enter</span>
      </div>
    </form>
  );
}
