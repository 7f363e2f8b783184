import { blockedAtMerge, blockedLastWords, lastWordsCut, mergeRetryWords, type WorkflowRunView } from '../../../../electron/contract/index';
import { humanState, skipWords } from './labels';

/** A parallel run's state while its components run side by side (workflow/plan.ts). */
const PARALLEL_STATE = 'parallel:components';

/** The lane of a step: its component, else the prefix of its state (`final`). */
const laneOf = (e: { component?: string | undefined; state: string }) => e.component ?? e.state.split(':')[0];

/**
 * How to go on from a blocked run: what the model said last in the step that blocked (it may say why), where the
 * files to fix are (a side-by-side component works in its own worktree, not in the project folder), the blocked
 * part's last test output, then Retry step or Skip.
 */
export function BlockedHint({ view, skip, component, onOpenTimeline }: { view: WorkflowRunView; skip?: string | undefined; component?: string | undefined; onOpenTimeline?: () => void }) {
  const lane = view.state === PARALLEL_STATE ? view.lanes?.find((l) => l.status === 'blocked' && (!component || l.component === component)) : undefined;
  const part = lane?.component ?? (view.state ? laneOf({ state: view.state }) : undefined);
  const test = part ? view.timeline.findLast((e) => !e.rewound && e.test && laneOf(e) === part)?.test : undefined;
  const words = blockedLastWords(view);
  const merging = lane ? undefined : blockedAtMerge(view);
  const cut = words ? lastWordsCut(words) : '';
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="blocked-hint">
      {words ? (
        <figure data-testid="blocked-last-words">
          <figcaption>What the model said last, in {humanState(words.state)}{cut ? ` (${cut})` : ''}:</figcaption>
          <blockquote className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap border-l-4 border-slate-300 pl-2 dark:border-slate-600">{words.text}</blockquote>
          {cut && words.sessionLog ? (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              All of it is in the step's session: open the step on the Timeline, then its session.
              {onOpenTimeline ? <> <button type="button" onClick={onOpenTimeline} className="underline focus-visible:outline-2 focus-visible:outline-indigo-500">Open the Timeline</button></> : null}
            </p>
          ) : null}
        </figure>
      ) : null}
      <p>
        {/* As the CLI says it: Retry step runs the step again on the files as they are now (a debugging step runs the tests first). */}
        {lane?.worktree && lane.asks ? (
          // The component's step stopped to ask: its card's answer box is the way on, as the run's own step's is.
          <>
            To go on: write your answer in the box below and press Retry with this answer; or settle it yourself in the worktree of {lane.component}, <code className="break-all font-mono text-xs" data-testid="blocked-worktree">{lane.worktree}</code> (its files are there, not in the project folder), then Retry step.{skip ? ` Or Skip ${humanState(skip)}: ${skipWords(skip)}.` : ''}
          </>
        ) : lane?.worktree ? (
          <>
            To go on: fix the cause in the worktree of {lane.component}, <code className="break-all font-mono text-xs" data-testid="blocked-worktree">{lane.worktree}</code> (its files are there, not in the project folder), or let the model try again; then Retry step.{skip ? ` Or Skip ${humanState(skip)}: ${skipWords(skip)}.` : ''}
          </>
        ) : view.error?.asks ? (
          // The step stopped to ask: the answer box below is the way on (Retry step alone tells it to go on as things are).
          `To go on: write your answer in the box below and press Retry with this answer; or settle it yourself in the project, then Retry step${skip ? `; or Skip ${humanState(skip)}: ${skipWords(skip)}.` : '.'}`
        ) : merging ? (
          `To go on: ${mergeRetryWords(merging, 'Retry step')}${skip ? `; or Skip ${humanState(skip)}: ${skipWords(skip)}.` : '.'}`
        ) : (
          `To go on: fix the cause in the project (or let the model try again), then Retry step${skip ? `; or Skip ${humanState(skip)}: ${skipWords(skip)}.` : '.'}`
        )}
      </p>
      {test?.output ? (
        <details data-testid="blocked-test-output">
          <summary className="cursor-pointer">Last test output: <code className="font-mono text-xs">{test.command}</code>{test.exitCode !== undefined && test.exitCode !== null ? ` (exit ${test.exitCode})` : ''}</summary>
          <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">{test.output}</pre>
        </details>
      ) : null}
    </div>
  );
}
