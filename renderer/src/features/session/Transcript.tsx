import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision } from '../../../../electron/contract/index';
import { ApprovalCard } from './ApprovalCard';
import { AskFrame } from './AskFrame';
import { MessageItem } from './MessageItem';
import type { SessionState } from './sessionState';
import { ToolCard } from './ToolCard';

const answerWords = { accept: 'Allowed', decline: 'Denied', cancel: 'Cancelled' } as const;

/**
 * A session's items in order; follows the stream while the user is at the bottom, and offers a "new
 * messages" pill when they scrolled up. `tail` (questions waiting in this session) comes last.
 */
export function Transcript({ session, scope, onDecide, tail }: { session: SessionState; scope: 'session' | 'step'; onDecide: (requestId: string, d: ApprovalDecision) => Promise<void>; tail?: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [unseen, setUnseen] = useState(false);
  const last = session.items.at(-1);
  const lastSize = last ? (last.kind === 'assistant' ? last.text.length : 0) : 0;
  const atBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < 120;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    if (atBottom(el)) el.scrollTop = el.scrollHeight;
    else setUnseen(true);
  }, [session.items.length, lastSize]);
  const toBottom = () => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    setUnseen(false);
  };
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div ref={box} onScroll={(e) => unseen && atBottom(e.currentTarget) && setUnseen(false)} className="flex min-h-0 flex-1 flex-col gap-2 overflow-auto p-3" data-testid="transcript" aria-live="polite">
        {session.items.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{session.running ? 'Waiting for the model…' : 'Nothing in this session yet.'}</p> : null}
        {session.items.map((item) => {
          switch (item.kind) {
            case 'tool':
              return <ToolCard key={`t${item.id}`} item={item} />;
            case 'approval':
              return <ApprovalCard key={`p${session.id}:${item.id}`} item={item} scope={scope} onDecide={(d) => onDecide(item.id, d)} />;
            case 'question':
              return (
                <AskFrame key={`q${item.id}`} label={`${item.server} asked`} testId="question-answered" state={item.answer} open={false} title={`${answerWords[item.answer]} · ${item.server} asked`}>
                  <pre className="whitespace-pre-wrap break-words font-mono text-xs text-slate-700 dark:text-slate-300">{item.message}</pre>
                </AskFrame>
              );
            case 'user':
              // A workflow step's first message is the protocol's prompt: long, so folded.
              if (scope === 'step' && item === session.items.find((i) => i.kind === 'user')) {
                return (
                  <details key={item.id} className="rounded border border-slate-200 text-sm dark:border-slate-800" data-testid="step-prompt">
                    <summary className="cursor-pointer px-3 py-1.5 font-medium focus-visible:outline-2 focus-visible:outline-indigo-500">The step’s prompt</summary>
                    <pre className="max-h-96 overflow-auto whitespace-pre-wrap border-t border-slate-200 p-3 font-mono text-xs dark:border-slate-800">{item.text}</pre>
                  </details>
                );
              }
              return <MessageItem key={item.id} item={item} />;
            default:
              return <MessageItem key={item.id} item={item} />;
          }
        })}
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
