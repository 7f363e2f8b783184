import { RewindMessage, type RewindScope } from './RewindMessage';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision } from '../../../../electron/contract/index';
import { ApprovalCard } from './ApprovalCard';
import { AskFrame } from './AskFrame';
import { MessageItem } from './MessageItem';
import { itemMatches, type SessionItem, type SessionState } from './sessionState';
import { answerWords, serverWords } from './serverApproval';
import { ToolCard } from './ToolCard';
import { formatDuration } from '../../ui/format';


const clock = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** When an item appeared, on its side of the transcript. */
function Stamp({ at, end }: { at?: number; end?: boolean }) {
  if (at === undefined) return null;
  return <time dateTime={new Date(at).toISOString()} title={new Date(at).toLocaleString()} className={`text-[10px] text-slate-600 dark:text-slate-400 ${end ? 'self-end' : ''}`} data-testid="item-time">{clock(at)}</time>;
}

/**
 * A session's items in order; follows the stream while the user is at the bottom, and offers a "new
 * messages" pill when they scrolled up. `tail` (questions waiting in this session) comes last.
 */
export function Transcript({ session, scope, step, onDecide, tail, query = '', onRetry, onRewind }: {
  session: SessionState;
  scope: 'session' | 'step';
  /** The workflow step this session runs, in words (its approvals name it). */
  step?: string;
  onDecide: (requestId: string, d: ApprovalDecision) => Promise<void>;
  tail?: ReactNode;
  /** Shows only the items holding this text. */
  query?: string;
  /** Offered on the provider's error when the session ended with it. */
  onRetry?: () => Promise<void>;
  /** "Rewind to here" on each user message (turn 1 = the task); resolves to what was done, in words. */
  onRewind?: (turn: number, scope: RewindScope) => Promise<string>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [unseen, setUnseen] = useState(false);
  const last = session.items.at(-1);
  const lastSize = last ? (last.kind === 'assistant' ? last.text.length : 0) : 0;
  const atBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < 120;
  // A session opened (or its log replayed) shows its latest message, as a chat does; after that, new items follow only a
  // reader who is at the bottom (the others get "new below").
  const opened = useRef<string | undefined>(undefined);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    if (opened.current !== session.id && session.items.length) {
      opened.current = session.id;
      el.scrollTop = el.scrollHeight;
      setUnseen(false);
      return;
    }
    if (atBottom(el)) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [session.id, session.items.length, lastSize]);
  const toBottom = () => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    setUnseen(false);
  };
  const shown = query.trim() ? session.items.filter((i) => itemMatches(i, query)) : session.items;
  // The provider's error that ended the session gets a Retry beside it.
  const lastError = session.endReason === 'error' && !session.running ? session.items.findLast((i) => i.kind === 'notice' && i.level === 'error') : undefined;
  const retryAt = lastError && lastError === session.items.at(-1) ? lastError : undefined;
  const render = (item: SessionItem) => {
    switch (item.kind) {
      case 'tool':
        return <ToolCard key={`t${item.id}`} item={item} />;
      case 'approval':
        return <ApprovalCard key={`p${session.id}:${item.id}`} item={item} scope={scope} {...(step ? { step } : {})} onDecide={(d) => onDecide(item.id, d)} />;
      case 'question':
        return (
          // Exactly what was answered: a denial reads as denied, a form's answer as answered, with the time it waited.
          <AskFrame
            key={`q${item.id}`}
            label={`${serverWords(item.server)} asked`}
            testId="question-answered"
            state={item.answer}
            open={false}
            title={`${answerWords(item.answer, item.yesNo ?? false)}${item.auto ? ' without asking' : ''}${item.action ? `: ${item.action}` : ''}`}
            subject={
              <span className="text-xs text-slate-600 dark:text-slate-400">
                asked by {serverWords(item.server)}
                {item.always ? <> · <span data-testid="question-always">{item.auto ? `you chose “${item.always}”` : item.always}</span></> : null}
                {item.answer === 'gone' ? ' · the process that asked it ended; nothing was done' : item.waitedMs !== undefined ? ` · answered after ${formatDuration(item.waitedMs)}` : ''}
              </span>
            }
          >
            {/* Answered: the server's closing "Allow?" was the question itself, not part of what it asked about (as the CLI shows it). */}
            <pre className="whitespace-pre-wrap break-words font-mono text-xs text-slate-700 dark:text-slate-300" data-testid="question-message">{item.yesNo ? item.message.replace(/\s*Allow\?\s*$/, '') : item.message}</pre>
          </AskFrame>
        );
      case 'user':
        // A workflow step's first message is the protocol's prompt: long, so folded.
        if (scope === 'step' && item === session.items.find((i) => i.kind === 'user' && !i.steered)) {
          return (
            <details key={item.id} className="rounded border border-slate-200 text-sm dark:border-slate-800" data-testid="step-prompt">
              <summary className="cursor-pointer px-3 py-1.5 font-medium focus-visible:outline-2 focus-visible:outline-indigo-500">The step’s prompt</summary>
              <pre tabIndex={0} aria-label="The step’s prompt" className="focus-visible:outline-2 focus-visible:outline-indigo-500 max-h-96 overflow-auto whitespace-pre-wrap border-t border-slate-200 p-3 font-mono text-xs dark:border-slate-800">{item.text}</pre>
            </details>
          );
        }
        return (
          <div key={item.id} className="flex flex-col gap-0.5">
            <MessageItem item={item} />
            {/* A message sent while the agent worked is no turn of its own: nothing to rewind to there. */}
            {onRewind && !session.running && !item.steered ? <RewindMessage turn={session.items.filter((i) => i.kind === 'user' && !i.steered).indexOf(item) + 1} onRewind={onRewind} /> : null}
          </div>
        );
      default:
        return <MessageItem key={item.id} item={item} />;
    }
  };
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div ref={box} onScroll={(e) => unseen && atBottom(e.currentTarget) && setUnseen(false)} className="flex min-h-0 flex-1 flex-col gap-2 overflow-auto p-3" data-testid="transcript" aria-live="polite">
        {session.items.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{session.running ? 'Waiting for the model…' : 'Nothing in this session yet.'}</p> : null}
        {query.trim() && shown.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="search-none">Nothing in this session matches “{query.trim()}”.</p> : null}
        {shown.map((item) => (
          <div key={`${item.kind}:${session.id}:${item.id}`} className="flex flex-col gap-0.5" data-testid="transcript-item" data-kind={item.kind}>
            <Stamp at={item.at} end={item.kind === 'user'} />
            {render(item)}
            {item === retryAt && onRetry ? <RetryButton onRetry={onRetry} /> : null}
          </div>
        ))}
        {tail}
      </div>
      {unseen ? (
        <button type="button" onClick={toBottom} data-testid="new-messages" className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-indigo-700 px-3 py-1 text-xs font-medium text-white shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500">
          New messages ↓
        </button>
      ) : null}
    </div>
  );
}

function RetryButton({ onRetry }: { onRetry: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="flex items-center gap-2">
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          onRetry().catch((e: Error) => setError(e.message)).finally(() => setBusy(false));
        }}
        data-testid="retry-session"
        className="self-start rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        {busy ? 'Retrying…' : 'Retry'}
      </button>
      {error ? <span role="alert" className="text-xs text-red-700 dark:text-red-300">{error}</span> : null}
    </span>
  );
}
