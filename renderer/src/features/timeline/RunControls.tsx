import { useState } from 'react';
import { Button } from '../../ui/Button';
import { humanState } from '../project/labels';
import { actionsFor, type RunAction, type RunPhase } from '../project/runState';

const labels: Record<RunAction, string> = { pause: 'Pause', resume: 'Resume', stop: 'Stop', retry: 'Retry step', skip: 'Skip step' };

/** Pause / resume / stop / retry / skip, offered only where the phase allows them; Stop asks first; Skip names the step it skips (`skip`, from skipTarget). */
export function RunControls({ phase, skip, without = [], onAction }: { phase: RunPhase; skip?: string | undefined; /** Actions offered elsewhere on the page (a blocked component's card). */ without?: RunAction[]; onAction: (a: RunAction) => Promise<void> }) {
  const [busy, setBusy] = useState<RunAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const label = (a: RunAction) => (a === 'skip' && skip ? `Skip ${humanState(skip)}` : labels[a]);
  const run = async (a: RunAction) => {
    setConfirming(false);
    setBusy(a);
    setError(null);
    try {
      await onAction(a);
    } catch (e) {
      setError(`${label(a)} failed: ${(e as Error).message}`);
    } finally {
      setBusy(null);
    }
  };
  const actions = actionsFor(phase, !!skip).filter((a) => !without.includes(a));
  if (actions.length === 0) return null;
  if (confirming) {
    return (
      <div className="flex flex-wrap items-center gap-2" role="alertdialog" aria-label="Stop the run?" data-testid="stop-confirm">
        <span className="text-sm">Stop this run? The current step ends; you can resume it later.</span>
        <Button variant="danger" onClick={() => void run('stop')} data-testid="stop-confirm-yes" autoFocus>Stop the run</Button>
        <Button onClick={() => setConfirming(false)} data-testid="stop-confirm-no">Keep running</Button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label="Run controls" data-testid="run-controls">
      {actions.map((a) => (
        <Button key={a} variant={a === 'stop' ? 'danger' : 'secondary'} disabled={busy !== null} onClick={() => (a === 'stop' ? setConfirming(true) : void run(a))} data-testid={`run-${a}`}>
          {busy === a ? `${label(a)}…` : label(a)}
        </Button>
      ))}
      {error ? <span role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</span> : null}
    </div>
  );
}
