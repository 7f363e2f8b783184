import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';

/**
 * The workflow's first question when the project has no architecture document: what should be built?
 * When the project's README describes it, that description is offered as a start (one click fills the box).
 */
export function GoalQuestion({ onAnswer, suggestion }: { onAnswer: (goal: string) => Promise<void>; suggestion?: { file: string; goal: string } }) {
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
      {suggestion && !goal.trim() ? (
        <div className="flex flex-col gap-1 text-sm" data-testid="goal-suggestion">
          <span className="text-slate-700 dark:text-slate-300">{suggestion.file} describes this project:</span>
          <blockquote className="border-l-2 border-indigo-300 pl-2 text-slate-800 dark:border-indigo-700 dark:text-slate-200">{suggestion.goal}</blockquote>
          <div>
            <Button type="button" onClick={() => { setGoal(suggestion.goal); setError(null); document.getElementById('goal')?.focus(); }} data-testid="goal-use-suggestion">
              Use this description
            </Button>
          </div>
        </div>
      ) : null}
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
