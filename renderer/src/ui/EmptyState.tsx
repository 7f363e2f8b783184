import type { ReactNode } from 'react';

/** What a view says when it has nothing to show yet, and what to do about it. */
export function EmptyState({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="mx-auto my-12 max-w-md rounded-lg border border-dashed border-slate-300 p-6 text-center dark:border-slate-700" data-testid={testId}>
      <p className="font-medium">{title}</p>
      {children ? <div className="mt-2 text-sm text-slate-600 dark:text-slate-400">{children}</div> : null}
    </div>
  );
}
