import { useMemo } from 'react';
import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { sessionIdFromLog } from './sessionRef';

/** Names a workflow step's session after its state (`adder:testing`), from the open run's timeline. */
export function useStepLabels(): ReadonlyMap<string, string> {
  const { run } = useServices();
  const state = useStore(run.store, (s) => s);
  return useMemo(() => {
    const labels = new Map<string, string>();
    if (state.kind !== 'run') return labels;
    for (const e of state.view.timeline) {
      const id = sessionIdFromLog(e.sessionLog);
      if (id) labels.set(id, e.state);
    }
    return labels;
  }, [state]);
}
