import { Button } from '../../ui/Button';
import type { KeyValueRow } from './serverForm';

const input = 'w-full rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:bg-slate-900';

/**
 * Environment variables or headers: a name and a value per row. "Secret" rows take a keychain name
 * and are written as `${secret:NAME}` — the value itself never goes into the config.
 */
export function KeyValueRows({ label, rows, onChange, idPrefix, keyPlaceholder, errorId }: { label: string; rows: KeyValueRow[]; onChange: (rows: KeyValueRow[]) => void; idPrefix: string; keyPlaceholder: string; errorId?: string }) {
  const set = (i: number, patch: Partial<KeyValueRow>) => onChange(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="flex flex-col gap-1" aria-describedby={errorId}>
      <legend className="text-sm font-medium">{label}</legend>
      {rows.map((r, i) => (
        <div key={i} className="flex items-center gap-1" data-testid={`${idPrefix}-row`}>
          <input aria-label={`${label} ${i + 1} name`} className={input} placeholder={keyPlaceholder} value={r.key} onChange={(e) => set(i, { key: e.target.value })} />
          <input
            aria-label={`${label} ${i + 1} ${r.secret ? 'keychain name' : 'value'}`}
            className={input}
            placeholder={r.secret ? 'keychain name (e.g. GITHUB_TOKEN)' : 'value'}
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <label className="flex shrink-0 items-center gap-1 text-xs">
            <input type="checkbox" checked={r.secret} onChange={(e) => set(i, { secret: e.target.checked })} className="focus-visible:outline-2 focus-visible:outline-indigo-500" />
            secret
          </label>
          <Button variant="ghost" aria-label={`Remove ${label} ${i + 1}`} onClick={() => onChange(rows.filter((_, k) => k !== i))}>×</Button>
        </div>
      ))}
      <Button variant="ghost" className="self-start" onClick={() => onChange([...rows, { key: '', value: '', secret: false }])} data-testid={`${idPrefix}-add`}>+ Add {label.toLowerCase().replace(/s$/, '')}</Button>
    </fieldset>
  );
}
