import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';

/** Talk to the agent: a new task, or a follow-up once it finished its last one. Enter sends, Shift+Enter breaks the line. */
export function Composer({ onSend, disabledReason, placeholder }: { onSend: (text: string) => Promise<void>; disabledReason?: string; placeholder: string }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || disabledReason) return;
    setBusy(true);
    setError(null);
    try {
      await onSend(text.trim());
      setText('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void send(e)} className="flex flex-col gap-1 border-t border-slate-200 p-2 dark:border-slate-800" aria-label="Message the agent">
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div className="flex gap-2">
        <label htmlFor="composer" className="sr-only">Message</label>
        <textarea
          id="composer"
          data-testid="composer"
          rows={2}
          value={text}
          placeholder={disabledReason ?? placeholder}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          className="flex-1 resize-none rounded border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
        />
        <Button type="submit" variant="primary" disabled={busy || !!disabledReason || !text.trim()} data-testid="composer-send">Send</Button>
      </div>
    </form>
  );
}
