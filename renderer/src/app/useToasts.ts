import { useCallback, useEffect, useRef, useState } from 'react';
import type { RpcClient } from '../api/client';
import type { Ask } from '../features/session/askingStep';
import { serverWords } from '../features/session/serverApproval';
import { toolWords } from '../features/session/toolWords';
import { systemNotify, type Toast } from './notifier';

type Face = 'desktop' | 'browser' | 'cli' | undefined;

/**
 * Feedback that outlives a view: `app.notice` and `app.notify` become toasts; `app.notify` also becomes
 * a system notification in browser mode (the desktop shell shows its own); an approval that waits while
 * the window is not focused becomes a system notification in both faces. Toasts about something that
 * waits for the user stay until it is settled and carry a "Review" button (`onReview`).
 */
export function useToasts(client: RpcClient, face: Face, onReview: () => void, stepOf: (ask: Ask) => string | undefined = () => undefined): { toasts: Toast[]; push: (t: Omit<Toast, 'id'>) => void; dismiss: (id: number) => void; prune: (waiting: (key: string) => boolean) => void } {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const push = useCallback((t: Omit<Toast, 'id'>) => {
    const id = next.current++;
    setToasts((all) => [...all.slice(-4), { ...t, id }]);
    if (!t.sticky) setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), t.level === 'error' ? 15_000 : 8_000);
  }, []);
  const review = useRef(onReview);
  review.current = onReview;
  const step = useRef(stepOf);
  step.current = stepOf;
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((x) => x.id !== id)), []);
  /** Drops the toasts of what no longer waits for the user (after a reconnect: the process that asked may have ended). */
  const prune = useCallback((waiting: (key: string) => boolean) => setToasts((all) => all.filter((t) => !t.key || waiting(t.key))), []);
  useEffect(() => {
    // Two components side by side may ask the same thing at once: the title says which step asks.
    const titled = (title: string, ask: Ask) => {
      const s = step.current(ask);
      return s ? `${title} · ${s}` : title;
    };
    const offs = [
      client.on('app.notify', ({ title, body }) => {
        push({ title, body, level: 'success' });
        if (face === 'browser') systemNotify(title, body);
      }),
      client.on('mcp.elicitation.request', (r) => {
        // In words: an approval says what it approves; another question says which server asks.
        const title = titled(r.approval ? 'Approval needed' : `${serverWords(r.server).replace(/^./, (c) => c.toUpperCase())} asks`, { server: r.server, ...(r.approval?.cwd ? { cwd: r.approval.cwd } : {}) });
        const body = r.approval?.action ?? r.message;
        push({ title, body, level: 'warning', key: r.id, sticky: true, action: { label: 'Review', run: () => review.current() } });
        if (!document.hasFocus()) systemNotify(`Erasmus: ${title}`, body);
      }),
      client.on('mcp.elicitation.done', ({ id }) => setToasts((all) => all.filter((t) => t.key !== id))),
      client.on('app.notice', ({ level, message }) => push({ title: level === 'info' ? 'Note' : level === 'warning' ? 'Warning' : 'Error', body: message, level })),
      client.on('agent.event', (e) => {
        if (e.type === 'approval_resolved') return setToasts((all) => all.filter((t) => t.key !== `${e.sessionId}:${e.requestId}`));
        if (e.type === 'session_ended') return setToasts((all) => all.filter((t) => !t.key?.startsWith(`${e.sessionId}:`)));
        if (e.type !== 'approval_required') return;
        const body = typeof e.args.command === 'string' ? e.args.command : toolWords(e.name, e.args);
        push({ title: titled('Approval needed', { sessionId: e.sessionId }), body, level: 'warning', key: `${e.sessionId}:${e.requestId}`, sticky: true, action: { label: 'Review', run: () => review.current() } });
        if (!document.hasFocus()) systemNotify('Erasmus needs your approval', body);
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [client, face, push]);
  return { toasts, push, dismiss, prune };
}
