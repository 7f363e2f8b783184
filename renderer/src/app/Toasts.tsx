import { Button } from '../ui/Button';
import type { Toast } from './notifier';

const tone: Record<Toast['level'], string> = {
  info: 'border-slate-300',
  success: 'border-emerald-500',
  warning: 'border-amber-500',
  error: 'border-red-500',
};

/** The toasts in the lower corner, above the composer (clear of its Send), announced to screen readers. */
export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div className="pointer-events-none fixed right-4 bottom-32 z-50 flex w-80 flex-col gap-2" aria-live="polite" role="status">
      {toasts.map((t) => (
        <div key={t.id} data-testid="toast" className={`pointer-events-auto rounded border-l-4 bg-white p-3 text-sm shadow-lg dark:bg-slate-800 ${tone[t.level]}`}>
          <div className="flex items-start gap-2">
            <p className="flex-1 font-medium">{t.title}</p>
            <button type="button" aria-label="Dismiss" onClick={() => onDismiss(t.id)} className="rounded px-1 focus-visible:outline-2 focus-visible:outline-indigo-500">×</button>
          </div>
          <p className="mt-0.5 line-clamp-4 break-words text-slate-700 dark:text-slate-300">{t.body}</p>
          {t.action ? (
            <Button variant="primary" className="mt-2" data-testid="toast-action" onClick={() => { t.action!.run(); if (!t.sticky) onDismiss(t.id); }}>{t.action.label}</Button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
