import type { ReactNode } from 'react';

/**
 * The one look of everything that waits for the user, tool approvals and server questions alike:
 * amber while open, quiet once answered.
 */
export function AskFrame({ label, testId, state, open, title, subject, children }: { label: string; testId: string; state: string; open: boolean; title: string; subject?: ReactNode; children: ReactNode }) {
  return (
    <article
      aria-label={label}
      data-testid={testId}
      data-state={state}
      className={`flex flex-col gap-2 rounded-lg border p-3 ${open ? 'border-amber-400 bg-amber-50 shadow-sm dark:border-amber-600 dark:bg-amber-950' : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950'}`}
    >
      <header className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`font-medium ${open ? 'text-amber-900 dark:text-amber-200' : 'text-slate-700 dark:text-slate-300'}`}>{title}</span>
        {subject}
      </header>
      {children}
    </article>
  );
}
