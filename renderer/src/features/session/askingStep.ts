import type { WorkflowRunView, WorkflowTimelineEntry } from '../../../../electron/contract/index';
import { sessionIdOfLog } from '../../../../electron/contract/run-steps';
import { humanState } from '../project/labels';

/** Who asks: the agent session of an approval, or the folder and server of a server's question. */
export interface Ask {
  sessionId?: string;
  /** The folder a server's approval acts in (a component's worktree in a run with components side by side). */
  cwd?: string;
  server?: string;
}

/**
 * The run's step that asks, in words ("cli · documentation"), so that two approvals of components side by side
 * say which is which: a question from a component's worktree is that component's running step; otherwise the
 * step whose session asks (a server's question: the session making the call to that server).
 */
export function askingStep(view: Pick<WorkflowRunView, 'timeline'> | null, ownerOf: (server: string) => string | undefined, ask: Ask): string | undefined {
  const entry = askingEntry(view, ownerOf, ask);
  return entry ? humanState(entry.state) : undefined;
}

/** The run's timeline entry of the step that asks (see `askingStep`), or undefined when no step of the run asks. */
export function askingEntry<E extends Pick<WorkflowTimelineEntry, 'state' | 'worktree' | 'leftAt' | 'sessionLog'>>(view: { timeline: readonly E[] } | null, ownerOf: (server: string) => string | undefined, ask: Ask): E | undefined {
  if (!view) return undefined;
  const { cwd } = ask;
  const inLane = cwd ? view.timeline.findLast((e) => !!e.worktree && !e.leftAt && (cwd === e.worktree || cwd.startsWith(`${e.worktree}/`))) : undefined;
  if (inLane) return inLane;
  const owner = ask.sessionId ?? (ask.server ? ownerOf(ask.server) : undefined);
  if (!owner) return undefined;
  return view.timeline.findLast((e) => sessionIdOfLog(e.sessionLog) === owner);
}
