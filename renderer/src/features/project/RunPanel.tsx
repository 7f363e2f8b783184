import { useState } from 'react';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useServices } from '../../app/services';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { Button } from '../../ui/Button';
import { RunControls } from '../timeline/RunControls';
import { useWaiting } from '../timeline/useWaiting';
import { RunSummary } from './RunSummary';
import { DocumentsPanel } from './DocumentsPanel';
import { DriftNotice } from './DriftNotice';
import { GoalQuestion } from './GoalQuestion';
import { NewGoal } from './NewGoal';
import { PlanDelta } from './PlanDelta';
import { PlanReview } from './PlanReview';
import { setTaskTitle } from './planEdit';
import { phaseOf, skipTarget, type RunAction, type RunPhase } from './runState';
import { humanError, humanState, runStatusWords } from './labels';
import { BlockedHint } from './BlockedHint';
import { LaneBlocks } from './LaneBlocks';
import { RetryAnswer } from './RetryAnswer';

const said: Record<RunPhase, string> = {
  goal: 'Waiting for your goal.',
  preparing: 'Writing the architecture, schedule and task list…',
  plan: 'The plan is ready for your review.',
  running: 'Working through the plan.',
  pausing: 'Pausing after the current steps…',
  external: 'Waiting for the external cognitive engine to answer a step.',
  paused: 'Paused.',
  blocked: 'Blocked: the run needs you (retry or skip the step).',
  stopped: 'Stopped.',
  interrupted: 'Interrupted: the process that drove this run ended. Nothing is driving it; Resume runs the cut-off steps again.',
  completed: 'Completed.',
};

/** One run of the open project: the question or plan it waits for, its documents, and its controls. */
export function RunPanel({ view, onOpenTimeline }: { view: WorkflowRunView; onOpenTimeline: () => void }) {
  const { run } = useServices();
  const client = useClient();
  const phase = phaseOf(view);
  const skip = skipTarget(view);
  // Pausing: how many steps it waits for (runStatusWords); blocked: what the buttons offer.
  const laneBlocked = (view.lanes ?? []).filter((l) => l.status === 'blocked');
  const blockedLanes = phase === 'running' ? laneBlocked.filter((l) => !l.asks).map((l) => l.component) : [];
  // One whose step stopped to ask waits for the user's answer, as the run's own step that asks does.
  const askingLanes = phase === 'running' ? laneBlocked.filter((l) => l.asks).map((l) => l.component) : [];
  // The run blocked with components blocked: each has its card (its error, its answer box, Retry and Skip for it).
  const laneCards = laneBlocked.length > 0 && (phase === 'running' || phase === 'pausing' || phase === 'blocked');
  // Blocked at the components' phase with none blocked: a component's merge step stopped the run; the answer is for it.
  const last = view.timeline.findLast((e) => !e.rewound && e.leftAt);
  const merge = phase === 'blocked' && !laneCards && view.state === 'parallel:components' && last?.state.endsWith(':merge') ? last.state : undefined;
  // A step held by an approval (its agent's, a server's; a durable run's worker step alike) waits for the user, not the plan.
  const waits = useWaiting(view, true);
  // The answer typed under a blocked step (RetryAnswer), for that step only. Retry step sends it too: a user who wrote an
  // answer and pressed Retry step (played as a user: the blocked message said "Retry step") had it dropped without a word.
  const [typed, setTyped] = useState<{ state?: string | undefined; text: string }>({ text: '' });
  const answer = typed.state === view.state ? typed.text : '';
  const retry = async (words?: string) => {
    await run.act('retry', undefined, words);
    setTyped({ text: '' });
  };
  const asking = phase === 'running' || phase === 'preparing' ? view.timeline.filter((e) => !e.leftAt && !e.rewound && waits(e)).map((e) => humanState(e.state)) : [];
  const heading =
    asking.length ? `Waiting for you: ${asking.join(', ')} ask${asking.length > 1 ? '' : 's'} for an approval.`
    : phase === 'pausing' ? runStatusWords(view)
    : phase === 'blocked' && view.error?.asks ? `Blocked: ${laneBlocked.length > 1 ? 'components stopped' : 'a step stopped'} to ask you and need${laneBlocked.length > 1 ? '' : 's'} your answer.`
    : phase === 'blocked' && !skip ? 'Blocked: the run needs you (retry the step).'
    : blockedLanes.length || askingLanes.length
      ? `Working through the plan; ${[
          askingLanes.length ? `component${askingLanes.length > 1 ? 's' : ''} ${askingLanes.join(', ')} stopped to ask you and need${askingLanes.length > 1 ? '' : 's'} your answer` : '',
          blockedLanes.length ? `component${blockedLanes.length > 1 ? 's' : ''} ${blockedLanes.join(', ')} ${blockedLanes.length > 1 ? 'are' : 'is'} blocked and need${blockedLanes.length > 1 ? '' : 's'} you` : '',
        ].filter(Boolean).join('; ')}.`
    : said[phase];
  // A task edited on the plan card is saved in the task list; the core reads the plan from it again (workflow.plan).
  const editTask = async (id: string, title: string) => {
    const doc = await client.request('workflow.docs.read', { projectDir: view.projectDir, doc: 'task_list' });
    const edited = setTaskTitle(doc.text, id, title);
    if ('error' in edited) throw new Error(edited.error);
    await client.request('workflow.docs.write', { projectDir: view.projectDir, doc: 'task_list', text: edited.text });
    await run.refresh();
  };
  return (
    <div className="flex flex-col gap-4" data-testid="run-panel" data-phase={phase}>
      <div className="flex flex-wrap items-center gap-3">
        <p className="font-medium" data-testid="run-phase">{heading}</p>
        {view.state && phase !== 'completed' ? <span className="rounded bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800" title={view.state}>{humanState(view.state)}</span> : null}
        <button type="button" className="text-sm text-indigo-700 dark:text-indigo-300 underline focus-visible:outline-2 focus-visible:outline-indigo-500" onClick={onOpenTimeline}>
          Open the timeline
        </button>
      </div>
      {view.goal ? <p className="text-sm"><span className="text-slate-600 dark:text-slate-400">Goal: </span>{view.goal}</p> : null}
      {/* Blocked at components: each card says its own error (the run's names them all). */}
      {view.error && !(phase === 'blocked' && laneCards) ? <ErrorBanner message={humanError(view.error)} /> : null}
      {phase === 'blocked' && !laneCards ? <BlockedHint view={view} skip={skip} onOpenTimeline={onOpenTimeline} /> : null}
      {phase === 'blocked' && !laneCards ? <RetryAnswer key={view.state} view={view} {...(merge ? { state: merge } : {})} answer={answer} onAnswer={(text) => setTyped({ state: view.state, text })} onRetry={(words) => retry(words)} /> : null}
      {laneCards ? <LaneBlocks view={view} onAction={(a, component, answer) => run.act(a, component, answer)} /> : null}
      {/* Blocked at components: each card has its Retry step and Skip, so the run's are not offered twice. */}
      <RunControls phase={phase} skip={skip} {...(phase === 'blocked' && laneCards ? { without: ['retry', 'skip'] satisfies RunAction[] } : {})} onAction={(a) => (a === 'retry' && phase === 'blocked' && answer.trim() ? retry(answer.trim()) : run.act(a))} />
      {phase === 'completed' ? <RunSummary view={view} onFinished={() => void run.refresh()} /> : null}
      {phase === 'completed' ? <DriftNotice projectDir={view.projectDir} version={view.updatedAt} onFix={(dirtyTree) => run.start(view.projectDir, view.executor === 'external' ? 'external' : 'agent', { documents: 'drifted', ...(dirtyTree ? { dirtyTree } : {}) })} /> : null}
      {phase === 'completed' ? <NewGoal executor={view.executor} onStart={(goal, autoApprove, dirtyTree) => run.start(view.projectDir, view.executor === 'external' ? 'external' : 'agent', { goal, autoApprove, ...(dirtyTree ? { dirtyTree } : {}) })} /> : null}
      {phase === 'stopped' || phase === 'interrupted' || phase === 'blocked' ? (
        <div><Button onClick={() => run.newRun()} data-testid="new-run">Start a new run instead</Button></div>
      ) : null}
      {phase === 'goal' ? <GoalQuestion onAnswer={(g) => run.answerGoal(g)} {...(view.suggestedGoal ? { suggestion: view.suggestedGoal } : {})} /> : null}
      {phase === 'plan' && view.plan && view.newGoal ? <PlanDelta plan={view.plan} existing={view.existing === true} /> : null}
      {phase === 'plan' && view.plan ? <PlanReview key={view.updatedAt} plan={view.plan} onConfirm={(p) => run.approve(p)} onEditTask={editTask} /> : null}
      <DocumentsPanel projectDir={view.projectDir} version={view.updatedAt} />
    </div>
  );
}
