import { useMemo } from 'react';
import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { humanState } from '../project/labels';
import { sessionIdFromLog } from './sessionRef';

/**
 * Names a workflow step's session in words, after its state and attempt ("adder · testing, attempt 2"),
 * from the open run's timeline, in run order.
 */
export function useStepLabels(): ReadonlyMap<string, string> {
  const { run } = useServices();
  const state = useStore(run.store, (s) => s);
  return useMemo(() => {
    const labels = new Map<string, string>();
    if (state.kind !== 'run') return labels;
    const attempts = new Map<string, number>();
    for (const e of state.view.timeline) {
      const n = (attempts.get(e.state) ?? 0) + 1;
      attempts.set(e.state, n);
      const id = sessionIdFromLog(e.sessionLog);
      if (id) labels.set(id, `${humanState(e.state)}${n > 1 ? `, attempt ${n}` : ''}`);
    }
    return labels;
  }, [state]);
}
