import { useEffect, useMemo, useState } from 'react';
import type { WorkflowRunSteps } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { runStepsOfView } from './sessionGroups';

/** How long workflow events settle before the runs are read again (a step emits several). */
const REFRESH_MS = 200;

/**
 * The workflow runs of the given projects with their steps' sessions (`workflow.runs`), read again
 * when a workflow event names one of them; the open run's steps come from its live view, so a step
 * is named the moment its session is known. A project whose runs cannot be read lists none.
 */
export function useRunRecords(projects: readonly string[]): WorkflowRunSteps[] {
  const client = useClient();
  const { run } = useServices();
  const live = useStore(run.store, (s) => (s.kind === 'run' ? s.view : null));
  const [byProject, setByProject] = useState<Readonly<Record<string, WorkflowRunSteps[]>>>({});
  const [tick, setTick] = useState(0);
  const key = [...new Set(projects.filter(Boolean))].sort().join('\n');

  useEffect(() => {
    let alive = true;
    for (const dir of key ? key.split('\n') : []) {
      client.request('workflow.runs', { projectDir: dir }).then(
        ({ runs }) => alive && setByProject((p) => ({ ...p, [dir]: runs })),
        () => {},
      );
    }
    return () => {
      alive = false;
    };
  }, [client, key, tick]);

  useEffect(() => {
    const dirs = new Set(key.split('\n'));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onEvent = (p: { projectDir: string }) => {
      if (!dirs.has(p.projectDir)) return;
      clearTimeout(timer);
      timer = setTimeout(() => setTick((t) => t + 1), REFRESH_MS);
    };
    const offs = [client.on('workflow.step', onEvent), client.on('workflow.status', onEvent)];
    return () => {
      clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [client, key]);

  return useMemo(() => {
    const dirs = key ? key.split('\n') : [];
    const runs = dirs.flatMap((d) => byProject[d] ?? []);
    if (!live) return runs;
    const mine = runStepsOfView(live);
    return [mine, ...runs.filter((r) => r.runId !== mine.runId)];
  }, [byProject, key, live]);
}
