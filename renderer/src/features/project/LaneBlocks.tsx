import { useState } from 'react';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { BlockedHint } from './BlockedHint';
import { humanState } from './labels';
import { RetryAnswer } from './RetryAnswer';

/**
 * Components side by side: each one that blocked, at once (while others still run, not once they finish; and when the
 * run itself blocked): which component, at which step, why, where its work is, its own answer box, and Retry / Skip for it
 * alone. One whose step stopped to ask the user (`asks`) says so and offers the answer first, as the run's own blocked step does.
 */
export function LaneBlocks({ view, onAction }: { view: WorkflowRunView; onAction: (action: 'retry' | 'skip', component: string, answer?: string) => Promise<void> }) {
  const running = view.status === 'RUNNING' && !view.interrupted;
  const blocked = running || view.status === 'BLOCKED' ? (view.lanes ?? []).filter((l) => l.status === 'blocked') : [];
  if (!blocked.length) return null;
  return (
    <div className="flex flex-col gap-3">
      {blocked.map((l) => (
        <LaneBlock key={l.component} view={view} lane={l} running={running} others={blocked.length > 1} onAction={onAction} />
      ))}
    </div>
  );
}

type Lane = NonNullable<WorkflowRunView['lanes']>[number];

function LaneBlock({ view, lane, running, others, onAction }: { view: WorkflowRunView; lane: Lane; running: boolean; others: boolean; onAction: (action: 'retry' | 'skip', component: string, answer?: string) => Promise<void> }) {
  const { component, state, error, asks } = lane;
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
  const at = state ? ` at ${humanState(state)}` : '';
  // While others run, they go on; once the run blocked, it waits, and going on here goes on with this component alone.
  const rest = running
    ? ` The components under way go on; no new one starts until you ${asks ? 'answer it, or retry or skip it' : 'retry or skip it'}.`
    : ` The run waits for it${others ? '; going on here goes on with this component alone (the others stay blocked until you go on with them)' : ''}.`;
  return (
    <section className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950" data-testid="lane-blocked" data-component={component} aria-label={asks ? `Component ${component} stopped to ask you` : `Component ${component} is blocked`}>
      <p className="font-medium">{asks ? `Component ${component} stopped to ask you${at}: it needs your answer.${rest}` : `Component ${component} is blocked${at}: it needs you${running ? ' now' : ''}.${rest}`}</p>
      {error ? <p className={`whitespace-pre-wrap text-sm ${asks ? 'text-slate-800 dark:text-slate-200' : 'text-red-800 dark:text-red-200'}`}>{error}</p> : null}
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
