import { useEffect, useMemo, useState } from 'react';
import type { SessionSummary } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useServices } from '../../app/services';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { formatCost, formatTokens } from '../../ui/format';
import { useStore } from '../../ui/store';
import { Composer } from './Composer';
import { SessionList, sessionTitle } from './SessionList';
import { Elicitations } from './Elicitations';
import { Transcript } from './Transcript';
import { groupSessions, stepFacts, stepTitles, type StepFacts } from './sessionGroups';
import { useRunRecords } from './useRunRecords';

/** What Retry sends after a provider error ended a chat: the task and what was done stay in the session. */
export const RETRY_MESSAGE = 'Your last reply did not arrive (the provider returned an error). Please continue with the task where you left off.';

const endWords = { complete: 'finished', error: 'ended with an error', budget: 'stopped: budget used up', stopped: 'stopped' } as const;

/** Agent sessions: the list, the selected transcript (messages, tool cards, approvals) and the composer. */
export function SessionView({ selected, onSelect, project }: { selected: string | null; onSelect: (id: string | null) => void; project?: string }) {
  const client = useClient();
  const { sessions } = useServices();
  const state = useStore(sessions, (s) => s);
  const list = useMemo(() => state.order.map((id) => state.byId[id]!).reverse(), [state]);
  const session = selected ? state.byId[selected] : undefined;
  // The runs of the open project and of every project a listed session ran in: they group and name the steps.
  const projects = useMemo(() => [...(project ? [project] : []), ...list.flatMap((s) => (s.project ? [s.project] : []))], [list, project]);
  const runs = useRunRecords(projects);
  const labels = useMemo(() => stepTitles(runs), [runs]);
  const facts = useMemo(() => stepFacts(runs), [runs]);
  const logged = useLoggedSessions(project, list.length);
  const groups = useMemo(() => groupSessions({ sessions: list, runs, project, logged }), [list, runs, project, logged]);
  const [stopError, setStopError] = useState<string | null>(null);
  const [replay, setReplay] = useState<{ id: string; error?: string } | null>(null);
  const [query, setQuery] = useState('');
  useEffect(() => setQuery(''), [selected]);
  // A session that ran before this window connected is replayed from its log.
  useEffect(() => {
    if (!selected || state.byId[selected]) return;
    let live = true;
    setReplay({ id: selected });
    sessions.load(selected).then(
      () => live && setReplay(null),
      (e: Error) => live && setReplay({ id: selected, error: e.message }),
    );
    return () => {
      live = false;
    };
  }, [selected, sessions, state.byId]);

  // A workflow step's session seen live lacks its prompt (the stream carries the model's side): read it from the log.
  const isStep = !!session && labels.has(session.id);
  const hasTask = !!session?.items.some((i) => i.kind === 'user' && !i.steered);
  useEffect(() => {
    if (!selected || !isStep || hasTask) return;
    let live = true;
    client.request('sessions.replay', { sessionId: selected }).then(
      ({ items }) => {
        const first = items.find((i) => i.type === 'user');
        if (live && first && first.type === 'user') sessions.addTask(selected, first.text);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, sessions, selected, isStep, hasTask]);

  // After a rewind of the conversation, the next message continues the log that holds it up to there.
  const [continueIn, setContinueIn] = useState<{ from: string; logPath: string; sessionId: string } | null>(null);
  const send = async (text: string) => {
    if (session && continueIn?.from === session.id) {
      // The conversation kept by the rewind, shown above the new message (the model reads it; the user sees it too).
      const earlier = await client.request('sessions.replay', { sessionId: continueIn.sessionId }).catch(() => undefined);
      const r = await client.request('agent.start', { prompt: text, resume: continueIn.logPath, ...(session.project ? { project: session.project } : {}) });
      setContinueIn(null);
      if (earlier?.items.length) {
        sessions.addEarlier(r.sessionId, earlier.items);
        sessions.addUserMessage(r.sessionId, text);
      } else sessions.addTask(r.sessionId, text);
      onSelect(r.sessionId);
      return;
    }
    if (!session) {
      const r = await client.request('agent.start', { prompt: text, ...(project ? { project } : {}) });
      sessions.addTask(r.sessionId, text);
      onSelect(r.sessionId);
      return;
    }
    // A chat the core no longer holds (Erasmus was restarted since it ran) goes on from its log, as `erasmus chat --resume` does.
    if (!session.running && session.logPath && !labels.has(session.id) && (await sessions.held(session.id)) === false) {
      const r = await client.request('agent.start', { prompt: text, resume: session.logPath, ...(session.project ? { project: session.project } : {}) });
      sessions.addUserMessage(r.sessionId, text);
      if (r.sessionId !== session.id) onSelect(r.sessionId);
      return;
    }
    // While it works the message is queued (its `steer` events show it); otherwise it is a follow-up.
    const r = await client.request('agent.send', { sessionId: session.id, message: text });
    if (!r.queued) sessions.addUserMessage(session.id, text);
  };

  return (
    <div className="flex h-full min-h-0" data-testid="session-view">
      <SessionList groups={groups} selected={selected} onSelect={(id) => onSelect(id || null)} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Elicitations sessionId={session?.id} show="others" className="border-b border-slate-200 p-3 dark:border-slate-800" />
        {session ? (
          <>
            <header className="flex items-center gap-3 border-b border-slate-200 px-3 py-1.5 text-xs dark:border-slate-800">
              <span className="truncate font-medium" title={session.id} data-testid="session-title">{sessionTitle(session, labels)}</span>
              {session.model ? <span title={`${session.provider}/${session.model}`} data-testid="session-model">{session.modelName ?? session.model} · {session.providerName ?? session.provider}</span> : null}
              {session.usage ? (
                <span data-testid="session-usage" title={session.lastTurn ? `last turn: ${formatTokens(session.lastTurn.inputTokens)} in (${formatTokens(session.lastTurn.cacheReadTokens ?? 0)} from cache), ${formatTokens(session.lastTurn.outputTokens)} out ${formatCost(session.lastTurn.costUsd)}` : undefined}>
                  {formatTokens(session.usage.totalTokens)} tokens{session.usage.cacheReadTokens ? ` (${formatTokens(session.usage.cacheReadTokens)} cached)` : ''} {formatCost(session.usage.costUsd)}
                  {session.lastTurn && typeof session.lastTurn.costUsd === 'number' ? <span data-testid="turn-cost"> · last turn {formatCost(session.lastTurn.costUsd)}</span> : null}
                </span>
              ) : null}
              <input
                type="search"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                placeholder="Search this session"
                aria-label="Search this session"
                data-testid="transcript-search"
                className="ml-auto w-44 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs dark:border-slate-700 dark:bg-slate-900"
              />
              <span data-testid="session-state">{session.running ? 'working' : session.endReason ? endWords[session.endReason] : 'idle'}</span>
              {session.running ? (
                <Button variant="danger" onClick={() => client.request('agent.stop', { sessionId: session.id }).catch((e: Error) => setStopError(e.message))}>Stop</Button>
              ) : null}
            </header>
            {stopError ? <p role="alert" className="px-3 text-sm text-red-700 dark:text-red-300">{stopError}</p> : null}
            {facts.get(session.id) ? <StepFactsNote facts={facts.get(session.id)!} /> : null}
            <Transcript
              key={session.id}
              session={session}
              scope={labels.get(session.id) ? 'step' : 'session'}
              {...(labels.get(session.id) ? { step: labels.get(session.id)! } : {})}
              tail={<Elicitations sessionId={session.id} show="mine" />}
              query={query}
              // A chat that a provider error ended goes on where it stopped (a step is retried from the timeline).
              onRetry={labels.has(session.id) ? undefined : () => send(RETRY_MESSAGE)}
              onRewind={labels.has(session.id) || !session.logPath ? undefined : async (turn, scope) => {
                const r = await client.request('agent.rewind', { logPath: session.logPath!, turn, scope });
                if (scope !== 'code') setContinueIn({ from: session.id, logPath: r.logPath, sessionId: r.sessionId });
                const files = scope === 'conversation' ? '' : `${r.files.length} file(s) restored${r.commitsUndone.length ? `, ${r.commitsUndone.length} commit(s) undone` : ''}. `;
                return `${files}${scope === 'code' ? 'The conversation goes on as it was.' : 'Your next message continues the conversation from before this one.'}`;
              }}
              onDecide={async (requestId, decision) => {
                const r = await client.request('agent.approve', { sessionId: session.id, requestId, decision });
                if (!r.ok) throw new Error('This approval is no longer waiting (the session moved on or stopped).');
              }}
            />
          </>
        ) : selected ? (
          replay?.error ? (
            <EmptyState title="This session cannot be shown" testId="session-missing">{replay.error}</EmptyState>
          ) : (
            <p className="p-4 text-sm text-slate-600 dark:text-slate-400">Reading the session log…</p>
          )
        ) : (
          <EmptyState title="No session selected" testId="session-empty">
            Start one by writing a task below, or click a step in the timeline to see its session.
          </EmptyState>
        )}
        {session?.queued?.length ? <QueuedMessages queued={session.queued} /> : null}
        <Composer
          onSend={send}
          // A workflow step's session lives as long as the step: once it ended, the timeline retries or rewinds it.
          disabledReason={session && isStep && !session.running ? 'This step has ended; retry or rewind it from the Timeline.' : undefined}
          placeholder={!session ? 'Describe a task for the agent… (Enter to send)' : session.running ? 'The agent is working on its task: a message is read at its next turn (Enter to send), or Stop it' : 'Follow up… (Enter to send)'}
        />
      </div>
    </div>
  );
}

/** What the step's record says beyond its transcript: the worker that ran it; the calls refused with nobody to answer them, which the model went on without. */
function StepFactsNote({ facts }: { facts: StepFacts }) {
  return (
    <>
      {facts.worker ? <p className="border-b border-slate-200 px-3 py-1 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400" data-testid="step-worker-note">Ran on {facts.worker}</p> : null}
      {facts.refused ? (
        <p role="note" className="border-b border-amber-300 bg-amber-50 px-3 py-1.5 text-xs text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100" data-testid="step-refused-note">
          <span className="font-medium">Note: </span>
          {facts.refused}
        </p>
      ) : null}
    </>
  );
}

/** Messages sent while the agent works, shown as queued until the model reads them at its next turn. */
function QueuedMessages({ queued }: { queued: { id: string; text: string }[] }) {
  return (
    <ul aria-label="Queued messages" className="flex flex-col gap-1 border-t border-slate-200 px-3 py-1.5 dark:border-slate-800" data-testid="queued-messages">
      {queued.map((q) => (
        <li key={q.id} className="flex items-baseline gap-2 text-sm" data-testid="queued-message">
          <span className="shrink-0 rounded bg-amber-100 px-1.5 text-[11px] font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">Queued</span>
          <span className="min-w-0 truncate" title={q.text}>{q.text}</span>
          <span className="ml-auto shrink-0 text-[11px] text-slate-600 dark:text-slate-400">read at the agent's next turn</span>
        </li>
      ))}
    </ul>
  );
}

/** The open project's logged sessions (sessions.list), read again when this window starts another. */
function useLoggedSessions(project: string | undefined, known: number): SessionSummary[] {
  const client = useClient();
  const [logged, setLogged] = useState<SessionSummary[]>([]);
  useEffect(() => {
    if (!project) return setLogged([]);
    let live = true;
    client.request('sessions.list', { project, limit: 100 }).then(({ sessions }) => live && setLogged(sessions), () => undefined);
    return () => {
      live = false;
    };
  }, [client, project, known]);
  return logged;
}
