import type { Field } from './elicitationForm';

const input = 'rounded border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900';

/** One input of an elicitation form, labelled for screen readers. */
export function ElicitationField({ field, value, onChange, idPrefix }: { field: Field; value: string | boolean | undefined; onChange: (v: string | boolean) => void; idPrefix: string }) {
  const id = `${idPrefix}-${field.name}`;
  const label = (
    <span>
      {field.title}
      {field.required ? ' *' : ''}
      {field.description ? <span className="block text-xs text-slate-600 dark:text-slate-400">{field.description}</span> : null}
    </span>
  );
  if (field.kind === 'boolean') {
    return (
      <label htmlFor={id} className="flex items-center gap-2 text-sm">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </label>
    );
  }
  return (
    <label htmlFor={id} className="flex flex-col gap-1 text-sm">
      {label}
      {field.kind === 'enum' ? (
        <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} className={input}>
          <option value="">—</option>
          {field.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      ) : (
        <input id={id} type={field.kind === 'number' ? 'number' : field.format === 'email' ? 'email' : 'text'} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} className={input} />
      )}
    </label>
  );
}
