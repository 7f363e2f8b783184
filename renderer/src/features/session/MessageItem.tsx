import { splitContextDoc } from '../../../../electron/contract/handback';
import { Markdown } from '../../ui/Markdown';
import type { SessionItem } from './sessionState';

type Message = Extract<SessionItem, { kind: 'user' | 'assistant' | 'notice' | 'reasoning' }>;

/** A message in the transcript: the user's text, the model's streamed markdown, or a notice. */
export function MessageItem({ item }: { item: Message }) {
  if (item.kind === 'user') {
    return (
      <div className="self-end whitespace-pre-wrap rounded-lg bg-indigo-600 px-3 py-2 text-sm text-white" data-testid="user-message" data-steered={item.steered ? 'true' : undefined}>
        {item.steered ? <span className="mb-0.5 block text-[11px] font-medium text-indigo-100">Sent while the agent worked · read at its next turn</span> : null}
        {item.text}
      </div>
    );
  }
  if (item.kind === 'notice') {
    const color = item.level === 'error' ? 'text-red-700 dark:text-red-300' : item.level === 'warning' ? 'text-amber-800 dark:text-amber-300' : 'text-slate-600 dark:text-slate-400';
    return <p role={item.level === 'error' ? 'alert' : undefined} className={`text-sm ${color}`}>{item.text}</p>;
  }
  if (item.kind === 'reasoning') {
    return (
      <details className="text-xs text-slate-500" data-testid="reasoning">
        <summary className="cursor-pointer select-none">Reasoning</summary>
        <p className="whitespace-pre-wrap pl-3">{item.text}</p>
      </details>
    );
  }
  // A workflow step's final answer may end with its context document, framed by marker lines: shown apart, folded.
  const { output, contextDoc } = item.streaming ? { output: item.text, contextDoc: undefined } : splitContextDoc(item.text);
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2 text-sm dark:bg-slate-900" data-testid="assistant-message" aria-busy={item.streaming}>
      {output.trim() ? <Markdown source={output} /> : null}
      {contextDoc !== undefined ? (
        <details className="mt-2 rounded border border-slate-200 px-2 py-1 dark:border-slate-700" data-testid="handed-back-doc">
          <summary className="cursor-pointer select-none text-slate-700 dark:text-slate-300">Context document handed back (Erasmus saved it)</summary>
          <Markdown source={contextDoc} />
        </details>
      ) : null}
      {item.streaming ? <span className="alive inline-block h-3 w-2 bg-slate-400" aria-hidden /> : null}
    </div>
  );
}
