import { useEffect, useState } from 'react';
import type { WorkflowRunSummary, WorkflowRunView } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { humanStatus } from '../project/labels';
import { when } from '../session/sessionGroups';

/**
 * A project's runs, newest first (`workflow.list`), read again when `key` changes (the open run, its status) or a
 * run of the project changes status (a run abandoned for a new goal, one finished elsewhere).
 */
export function useProjectRuns(projectDir: string | undefined, key: string): WorkflowRunSummary[] {
  const client = useClient();
  const [runs, setRuns] = useState<WorkflowRunSummary[]>([]);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!projectDir) return;
    return client.on('workflow.status', (p) => {
      if (p.projectDir === projectDir) setTick((t) => t + 1);
    });
  }, [client, projectDir]);
  useEffect(() => {
    if (!projectDir) return setRuns([]);
    let live = true;
    client.request('workflow.list', { projectDir }).then(
      (r) => live && setRuns(r.runs.filter((x) => x.projectDir === projectDir)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, projectDir, key, tick]);
  return runs;
}

/** A run in the picker: how it stands and when it started (short, so they stay in sight), then its goal's first line. */
export function runLabel(r: Pick<WorkflowRunSummary, 'goal' | 'createdAt' | 'status' | 'interrupted'>): string {
  const goal = r.goal?.split('\n').find((l) => l.trim())?.trim();
  const short = goal && goal.length > 70 ? `${goal.slice(0, 69)}…` : goal;
  return `${humanStatus(r.status, r.interrupted)} · ${when(Date.parse(r.createdAt))} · ${short ?? 'no goal given (it went on from the documents)'}`;
}

/**
 * Which of the project's runs the timeline shows, newest first: the open run (the one the controls act on) or an
 * earlier one, read with `workflow.status` and shown as it was left. Not shown while the open run is the project's only one.
 */
export function RunPicker({ runs, openRunId, shown, onShow }: { runs: readonly WorkflowRunSummary[]; openRunId: string | null; shown: string | null; onShow: (runId: string | null) => void }) {
  if (!runs.some((r) => r.runId !== openRunId)) return null;
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-slate-600 dark:text-slate-400">Run</span>
      <select
        data-testid="timeline-run-picker"
        className="max-w-[40rem] rounded border border-slate-300 bg-white px-2 py-0.5 dark:border-slate-700 dark:bg-slate-900"
        value={shown ?? openRunId ?? ''}
        onChange={(e) => onShow(e.target.value === openRunId ? null : e.target.value)}
      >
        {openRunId === null ? <option value="">No run open</option> : null}
        {runs.map((r, i) => (
          <option key={r.runId} value={r.runId}>
            {r.runId === openRunId ? 'Open run: ' : i === 0 ? 'Newest: ' : ''}
            {runLabel(r)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** An earlier run's record (`workflow.status`), or why it could not be read. */
export function useRunView(runId: string | null): { view: WorkflowRunView | null; error: string | null } {
  const client = useClient();
  const [got, setGot] = useState<{ runId: string; view: WorkflowRunView | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!runId) return setGot(null);
    let live = true;
    client.request('workflow.status', { runId }).then(
      (view) => live && setGot({ runId, view, error: null }),
      (err: Error) => live && setGot({ runId, view: null, error: err.message }),
    );
    return () => {
      live = false;
    };
  }, [client, runId]);
  return got && got.runId === runId ? { view: got.view, error: got.error } : { view: null, error: null };
}
