import { useState } from 'react';
import { Button } from '../../ui/Button';
import { actionsFor, type RunAction, type RunPhase } from '../project/runState';

const labels: Record<RunAction, string> = { pause: 'Pause', resume: 'Resume', stop: 'Stop', retry: 'Retry step', skip: 'Skip step' };

/** Pause / resume / stop / retry / skip, offered only where the phase allows them. */
export function RunControls({ phase, onAction }: { phase: RunPhase; onAction: (a: RunAction) => Promise<void> }) {
  const [busy, setBusy] = useState<RunAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (a: RunAction) => {
    setBusy(a);
    setError(null);
    try {
      await onAction(a);
    } catch (e) {
      setError(`${labels[a]} failed: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  };
  const actions = actionsFor(phase);
  if (actions.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Run controls" data-testid="run-controls">
      {actions.map((a) => (
        <Button key={a} variant={a === 'stop' ? 'danger' : 'secondary'} disabled={busy !== null} onClick={() => void run(a)} data-testid={`run-${a}`}>
          {busy === a ? `${labels[a]}…` : labels[a]}
        </Button>
      ))}
      {error ? <span role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</span> : null}
    </div>
  );
}
