import { useEffect, useRef } from 'react';
import type { ApprovalDecision } from '../../../../electron/contract/index';
import { ApprovalCard } from './ApprovalCard';
import { MessageItem } from './MessageItem';
import type { SessionState } from './sessionState';
import { ToolCard } from './ToolCard';

/** A session's items in order; follows the stream while the user is at the bottom. */
export function Transcript({ session, onDecide }: { session: SessionState; onDecide: (requestId: string, d: ApprovalDecision) => Promise<void> }) {
  const box = useRef<HTMLDivElement>(null);
  const last = session.items.at(-1);
  const lastSize = last ? (last.kind === 'assistant' ? last.text.length : 0) : 0;
  useEffect(() => {
    const el = box.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 120) el.scrollTop = el.scrollHeight;
  }, [session.items.length, lastSize]);
  return (
    <div ref={box} className="flex min-h-0 flex-1 flex-col gap-2 overflow-auto p-3" data-testid="transcript" aria-live="polite">
      {session.items.length === 0 ? <p className="text-sm text-slate-500">{session.running ? 'Waiting for the model…' : 'Nothing in this session yet.'}</p> : null}
      {session.items.map((item) => {
        switch (item.kind) {
          case 'tool':
            return <ToolCard key={`t${item.id}`} item={item} />;
          case 'approval':
            return <ApprovalCard key={`p${item.id}`} item={item} onDecide={(d) => onDecide(item.id, d)} />;
          default:
            return <MessageItem key={item.id} item={item} />;
        }
      })}
    </div>
  );
}
