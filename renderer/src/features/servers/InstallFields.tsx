/** What an install asks for (a registry server's env vars and headers, a bundle's user_config). */
export interface InstallQuestion {
  key: string;
  title: string;
  description: string;
  required: boolean;
  secret: boolean;
  multiple?: boolean;
  default?: string;
}

const input = 'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:bg-slate-900';

/** One labelled field per question; secrets are password fields and say where they go. */
export function InstallFields({ idPrefix, questions, values, onChange }: { idPrefix: string; questions: InstallQuestion[]; values: Record<string, string>; onChange: (key: string, value: string) => void }) {
  if (!questions.length) return <p className="text-sm text-slate-600 dark:text-slate-400">It asks for no settings.</p>;
  return (
    <div className="flex flex-col gap-2">
      {questions.map((q) => {
        const id = `${idPrefix}-${q.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
        return (
          <div key={q.key} className="flex flex-col gap-0.5">
            <label htmlFor={id} className="text-sm font-medium">
              {q.title}
              {q.required ? <span className="ml-1 text-red-700 dark:text-red-400">(required)</span> : null}
            </label>
            {q.multiple ? (
              <textarea id={id} rows={2} className={`${input} font-mono`} value={values[q.key] ?? q.default ?? ''} onChange={(e) => onChange(q.key, e.target.value)} aria-describedby={`${id}-hint`} data-testid={`install-field-${q.key}`} />
            ) : (
              <input id={id} type={q.secret ? 'password' : 'text'} autoComplete="off" className={`${input} font-mono`} value={values[q.key] ?? q.default ?? ''} onChange={(e) => onChange(q.key, e.target.value)} aria-describedby={`${id}-hint`} data-testid={`install-field-${q.key}`} />
            )}
            <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
              {q.description && q.description !== q.title ? `${q.description}. ` : ''}
              {q.secret ? 'Kept in the system keychain; the config holds only a reference.' : ''}
              {q.multiple ? 'One per line.' : ''}
            </p>
          </div>
        );
      })}
    </div>
  );
}
