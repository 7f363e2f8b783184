import { useEffect, useMemo, useState } from 'react';
import { costByPart, runElapsed, runIsLive, type WorkflowRunView } from '../../../../electron/contract/index';
import { liveTotals } from '../../app/progress';
import { useServices } from '../../app/services';
import { EmptyState } from '../../ui/EmptyState';
import { formatCost, formatDuration, formatTokens } from '../../ui/format';
import { useStore } from '../../ui/store';
import { phaseOf, skipTarget } from '../project/runState';
import { Elicitations } from '../session/Elicitations';
import { sessionIdFromLog } from '../session/sessionRef';
import { focusOf, layout, type Block } from './lanes';
import { SideScroll } from './SideScroll';
import { machineOf } from './machine';
import { StateMachine } from './StateMachine';
import { RunControls } from './RunControls';
import { StepBlock } from './StepBlock';
import { StepDetails } from './StepDetails';
import { RunPicker, useProjectRuns, useRunView } from './RunPicker';
import { UndoRewind } from './UndoRewind';
import { useNow } from './useNow';
import { useWaiting } from './useWaiting';
import { humanError, humanState, runStatusWords } from '../project/labels';


/** The narrowest a step's column gets: its label ("documentation", "review fixes ×2") fits at the blocks' type size. */
const COLUMN_PX = 92;

/** The run's own lanes in words; a component's lane keeps its id. */
const LANE_WORDS: Record<string, string> = { prepare: 'Preparation', final: 'Final phase', orchestration: 'Schedule', parallel: 'Side by side' };
/**
 * The project's runs as pictures: the open run (its controls act on it) or, picked from the project's runs newest first,
 * an earlier one (a goal before this one, a run abandoned for a newer goal) as it was left.
 */
export function TimelineView({ onOpenSession }: { onOpenSession: (sessionId: string) => void }) {
  const { run } = useServices();
  const state = useStore(run.store, (s) => s);
  const open = state.kind === 'run' ? state.view : null;
  const projectDir = state.kind === 'idle' ? undefined : state.projectDir;
  const runs = useProjectRuns(projectDir, `${open?.runId ?? ''} ${open?.status ?? ''}`);
  const [picked, setPicked] = useState<string | null>(null);
  // Another project: its open run again.
  useEffect(() => setPicked(null), [projectDir]);
  const shown = picked && picked !== open?.runId ? picked : null;
  const earlier = useRunView(shown);
  const back = () => setPicked(null);
  return (
    <div className="flex flex-col gap-4">
      {/* A step's server asks here too (e.g. the files server before it replaces a file): a run must not wait on a question nobody sees. */}
      <Elicitations />
      <RunPicker runs={runs} openRunId={open?.runId ?? null} shown={shown} onShow={setPicked} />
      {shown ? (
        earlier.view ? (
          <>
            <p className="flex flex-wrap items-center gap-2 rounded bg-slate-100 px-3 py-1.5 text-sm dark:bg-slate-900" data-testid="timeline-earlier-run">
              <span>An earlier run of this project, shown as it was left.</span>
              {earlier.view.goal ? <span>Its goal: <span className="font-medium">{firstLine(earlier.view.goal)}</span></span> : null}
              {open ? <button type="button" onClick={back} className="underline focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="timeline-back">Back to the open run</button> : null}
            </p>
            <RunTimeline key={earlier.view.runId} view={earlier.view} open={false} onOpenSession={onOpenSession} />
          </>
        ) : earlier.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">Could not read that run: {earlier.error}</p>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">Reading the run…</p>
        )
      ) : open ? (
        <RunTimeline key={open.runId} view={open} open onOpenSession={onOpenSession} />
      ) : (
        <EmptyState title="No workflow run" testId="timeline-empty">
          {runs.length ? 'No run is open: pick an earlier run above to see its steps, or start a new goal from the Project view.' : 'Open a project and start its workflow: its steps appear here as they run.'}
        </EmptyState>
      )}
    </div>
  );
}

const firstLine = (text: string) => text.split('\n').find((l) => l.trim())?.trim() ?? text;

/**
 * One run as a picture: one lane per component, protocol states as blocks in the order they ran; click one for details.
 * `open`: the run the controls act on (its live tokens, who waits on an approval, rewind); an earlier run is shown as it was left.
 */
function RunTimeline({ view, open, onOpenSession }: { view: WorkflowRunView; open: boolean; onOpenSession: (sessionId: string) => void }) {
  const { run, sessions } = useServices();
  const phase = phaseOf(view);
  const now = useNow(open && (phase === 'running' || phase === 'pausing' || phase === 'preparing' || phase === 'external'));
  const byId = useStore(sessions, (s) => s.byId);
  const waiting = useWaiting(view, open);
  const atRest = !open || !runIsLive(view);
  const lanes = useMemo(() => {
    // A step cut off when nothing drives the run (interrupted) ended at the run's last update, not now.
    const end = atRest ? Math.min(now, Date.parse(view.updatedAt)) : now;
    return layout(view, end, waiting);
  }, [view, now, atRest, waiting]);
  const [selected, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<'order' | 'machine'>('order');
  const rows = useMemo(() => machineOf(view, lanes), [view, lanes]);
  const block: Block | undefined = lanes.flatMap((l) => l.blocks).find((b) => b.key === selected);
  const sessionId = block ? sessionIdFromLog(block.entry.sessionLog) : null;
  // The same clock as the status bar's (runElapsed): a run at rest shows the time to its last update, not to now.
  const elapsed = runElapsed(view, now, !atRest) ?? 0;
  return (
    <div className="flex flex-col gap-4" data-testid="timeline" data-status={view.status} data-run={open ? 'open' : 'earlier'}>
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <span className="font-medium" data-testid="timeline-status" data-status={view.status}>{runStatusWords(view)}</span>
        {view.state && view.status !== 'COMPLETED' ? <span className="text-slate-600 dark:text-slate-400" title={view.state}>{humanState(view.state)}</span> : null}
        <span>{formatDuration(elapsed)}</span>
        <span data-testid="run-cost">{runCost(open ? { ...view, totals: liveTotals(view, byId) } : view)}</span>
        {open ? <div className="ml-auto"><RunControls phase={phase} skip={skipTarget(view)} onAction={(a) => run.act(a)} /></div> : null}
      </div>
      <CostByPart view={view} />
      {open ? <UndoRewind view={view} onUndone={() => void run.refresh()} /> : null}
      {/* A step that stopped to ask waits for the user's answer (amber, as its block): it did not fail. */}
      {view.error ? <p role="alert" data-asks={view.error.asks ? 'true' : undefined} className={`text-sm ${view.error.asks ? 'text-amber-900 dark:text-amber-200' : 'text-red-700 dark:text-red-300'}`}>{humanError(view.error)}</p> : null}
      <div className="flex gap-1 text-sm" role="group" aria-label="Show the run as">
        {([['order', 'Steps in order'], ['machine', 'State machine']] as const).map(([m, label]) => (
          <button key={m} type="button" aria-pressed={mode === m} onClick={() => setMode(m)} data-testid={`timeline-mode-${m}`}
            className={`rounded border px-2 py-0.5 focus-visible:outline-2 focus-visible:outline-indigo-500 ${mode === m ? 'border-indigo-700 bg-indigo-700 text-white' : 'border-slate-300 dark:border-slate-700'}`}>
            {label}
          </button>
        ))}
      </div>
      {mode === 'machine' ? <StateMachine rows={rows} onOpen={(x) => setSelected(x.key)} /> : lanes.length === 0 ? <EmptyState title="No steps yet">The first steps write the documents.</EmptyState> : (
        // A long run scrolls sideways rather than squeezing its steps: every column is wide enough for its label.
        <SideScroll focus={focusOf(lanes, phase === 'blocked')?.index}>
        <div className="flex flex-col gap-1" role="list" aria-label="Components" style={{ minWidth: `calc(${view.timeline.length * COLUMN_PX}px + 7.5rem)` }}>
          {lanes.map((lane) => (
            <div key={lane.id} role="listitem" className="flex items-stretch gap-2" data-testid={`lane-${lane.id}`}>
              {/* The lane's name stays in sight while the steps scroll under it. */}
              <span className={`sticky left-0 z-10 line-clamp-2 w-28 shrink-0 bg-white py-2 pr-1 text-right text-xs leading-4 [overflow-wrap:anywhere] dark:bg-slate-950 ${LANE_WORDS[lane.id] ? '' : 'font-mono'}`} title={lane.id}>{LANE_WORDS[lane.id] ?? lane.id}</span>
              <div className="relative h-12 flex-1 rounded bg-slate-100 dark:bg-slate-900">
                {lane.blocks.map((b) => <StepBlock key={b.key} block={b} onOpen={(x) => setSelected(x.key)} />)}
              </div>
            </div>
          ))}
        </div>
        </SideScroll>
      )}
      <Legend />
      {/* An earlier run is shown as it was left: rewinding is for the open run. */}
      {block ? <StepDetails runId={view.runId} block={block} onOpenSession={sessionId ? () => onOpenSession(sessionId) : null} {...(open ? { rewind: { running: view.status === 'RUNNING', onRewound: () => void run.refresh() } } : {})} /> : null}
    </div>
  );
}

function Legend() {
  const items: Array<[string, string]> = [
    ['bg-sky-700', 'running'],
    ['bg-amber-300 ring-1 ring-amber-500', 'waiting for you'],
    ['bg-emerald-700', 'done'],
    ['border border-dashed border-red-700', 'failed, then fixed'],
    ['bg-red-700', 'failed'],
    ['bg-amber-100 ring-1 ring-amber-600', 'asked you'],
    ['bg-amber-400', 'interrupted or stopped'],
    ['bg-slate-300', 'skipped'],
  ];
  return (
    <p className="flex gap-3 text-xs text-slate-600 dark:text-slate-400" aria-label="Legend">
      {items.map(([c, l]) => <span key={l} className="flex items-center gap-1"><span className={`inline-block h-2 w-3 rounded ${c}`} />{l}</span>)}
    </p>
  );
}

/** The run's tokens and cost so far, and its budget when it has one. */
export function runCost(view: Pick<WorkflowRunView, 'totals' | 'budgetUsd'>): string {
  const t = view.totals;
  const cached = t.cacheReadTokens ? ` (${formatTokens(t.cacheReadTokens)} from cache)` : '';
  const cost = t.costUsd !== undefined ? ` · ${formatCost(t.costUsd)}` : view.budgetUsd !== undefined ? ' · cost unknown (no prices for this model)' : '';
  const budget = view.budgetUsd !== undefined ? ` of a ${formatCost(view.budgetUsd)} budget` : '';
  return `${formatTokens(t.totalTokens)} tokens${cached}${cost}${budget}`;
}

/** Tokens and cost per part of the run (the preparation, each component, the final phase), finished steps only. */
function CostByPart({ view }: { view: Pick<WorkflowRunView, 'timeline'> }) {
  const parts = costByPart(view.timeline);
  if (!parts.length) return null;
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600 dark:text-slate-400" aria-label="Cost per part of the run" data-testid="cost-by-part">
      {parts.map((p) => (
        <li key={p.part} data-testid="part-cost">
          <span className="font-medium text-slate-700 dark:text-slate-300">{p.label}</span> {formatTokens(p.totalTokens)} tokens{p.costUsd !== undefined ? ` ${formatCost(p.costUsd)}` : ' · cost unknown'}
        </li>
      ))}
    </ul>
  );
}
