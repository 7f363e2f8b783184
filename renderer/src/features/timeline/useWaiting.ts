import { useEffect, useMemo, useRef } from 'react';
import type { WorkflowRunView, WorkflowTimelineEntry } from '../../../../electron/contract/index';
import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { askingEntry } from '../session/askingStep';
import { sessionIdFromLog } from '../session/sessionRef';
import { pendingApprovals } from '../session/sessionState';

/**
 * Which of the run's steps wait for the user (`active`: the open run; an earlier one waits for nobody): its session's
 * approval waits (a durable run's worker asks here under its session's id), or a server's question (a runner's command,
 * a file's overwrite) asks in its worktree or from the session calling that server (`askingEntry`).
 */
export function useWaiting(view: Pick<WorkflowRunView, 'timeline'> | null, active: boolean): (e: WorkflowTimelineEntry) => boolean {
  const { sessions, elicitations } = useServices();
  const waitingIds = useStore(sessions, (s) => (active ? Object.values(s.byId).filter((x) => pendingApprovals(x).length > 0).map((x) => x.id).join(' ') : ''));
  const byId = useStore(sessions, (s) => s.byId);
  const questions = useStore(elicitations, (s) => s);
  // A window opened (or reloaded) while a step runs has not seen its session: read from its log (cut off if the core
  // no longer runs it), its running call and waiting approval say whether it waits. Once per session; a durable run's
  // worker step's log is the copy its run keeps in this home (durable/step-log.ts), read the same way.
  const asked = useRef(new Set<string>());
  const running = active && view ? view.timeline.filter((e) => !e.leftAt && !e.rewound).map((e) => sessionIdFromLog(e.sessionLog)).filter((id): id is string => !!id && !byId[id] && !asked.current.has(id)) : [];
  const missing = running.join(' ');
  useEffect(() => {
    for (const id of missing ? missing.split(' ') : []) {
      asked.current.add(id);
      sessions.load(id).catch(() => undefined);
    }
  }, [missing, sessions]);
  return useMemo(() => {
    const held = new Set(waitingIds.split(' ').filter(Boolean));
    // byId: who calls a server changes with the sessions (`ownerOf` reads them).
    void byId;
    const asking = new Set(active && view ? questions.map((r) => askingEntry(view, (server) => sessions.ownerOf(server, r.approval?.cwd), { server: r.server, ...(r.approval?.cwd ? { cwd: r.approval.cwd } : {}) })).filter((e) => !!e) : []);
    // A step with no session yet (or none at all: an external engine's) waits on no approval of its own.
    return (e) => {
      const id = sessionIdFromLog(e.sessionLog);
      return (!!id && held.has(id)) || asking.has(e);
    };
  }, [active, view, waitingIds, byId, questions, sessions]);
}
