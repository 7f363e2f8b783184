import { useState } from 'react';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { BlockedHint } from './BlockedHint';
import { humanState } from './labels';
import { RetryAnswer } from './RetryAnswer';

/**
 * Components side by side: each one that blocked while others still run, at once (not once they finish): which
 * component, at which step, why, where its work is, and Retry / Skip for it alone (the others go on).
 */
export function LaneBlocks({ view, onAction }: { view: WorkflowRunView; onAction: (action: 'retry' | 'skip', component: string, answer?: string) => Promise<void> }) {
  const blocked = view.status === 'RUNNING' && !view.interrupted ? (view.lanes ?? []).filter((l) => l.status === 'blocked') : [];
  if (!blocked.length) return null;
  return (
    <div className="flex flex-col gap-3">
      {blocked.map((l) => (
        <LaneBlock key={l.component} view={view} component={l.component} state={l.state} error={l.error} onAction={onAction} />
      ))}
    </div>
  );
}

function LaneBlock({ view, component, state, error, onAction }: { view: WorkflowRunView; component: string; state?: string | undefined; error?: string | undefined; onAction: (action: 'retry' | 'skip', component: string, answer?: string) => Promise<void> }) {
  const [busy, setBusy] = useState<'retry' | 'skip' | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const act = async (a: 'retry' | 'skip') => {
    setBusy(a);
    setFailed(null);
    try {
      await onAction(a, component);
    } catch (e) {
      setFailed((e as Error).message);
    } finally {
      setBusy(null);
    }
  };
  const skipLabel = state ? `Skip ${humanState(state)}` : undefined;
  return (
    <section className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950" data-testid="lane-blocked" data-component={component} aria-label={`Component ${component} is blocked`}>
      <p className="font-medium">Component {component} is blocked{state ? ` at ${humanState(state)}` : ''}: it needs you now. The components under way go on; no new one starts until you retry or skip it.</p>
      {error ? <p className="whitespace-pre-wrap text-sm text-red-800 dark:text-red-200">{error}</p> : null}
      <BlockedHint view={view} skip={state} component={component} />
      <RetryAnswer key={state} view={view} state={state} component={component} onRetry={(answer) => onAction('retry', component, answer)} />
      <div className="flex flex-wrap items-center gap-2">
        <Button disabled={busy !== null} onClick={() => void act('retry')} data-testid="lane-retry">{busy === 'retry' ? 'Retry step…' : 'Retry step'}</Button>
        {skipLabel ? <Button disabled={busy !== null} onClick={() => void act('skip')} data-testid="lane-skip">{busy === 'skip' ? `${skipLabel}…` : skipLabel}</Button> : null}
        {failed ? <span role="alert" className="text-sm text-red-700 dark:text-red-300">{failed}</span> : null}
      </div>
    </section>
  );
}
