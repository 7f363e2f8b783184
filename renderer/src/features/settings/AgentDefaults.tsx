import { useState } from 'react';
import type { AgentDefaultsChange, AgentDefaults as Defaults } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { inputClass, messageOf } from './fields';

const MODES: Array<{ value: Defaults['toolMode']; label: string }> = [
  { value: 'auto', label: 'auto: native tool calls when the model supports them, else xml' },
  { value: 'native', label: 'native: the provider’s own tool calling' },
  { value: 'xml', label: 'xml: tool calls written in the text (any model)' },
];
const POLICIES: Array<{ value: Defaults['approvals']; label: string }> = [
  { value: 'ask', label: 'ask: every call that may change something asks first (read-only tools still run)' },
  { value: 'non-destructive', label: 'auto-approve non-destructive: read-only and non-destructive tools and safe commands run; the rest asks' },
  { value: 'unattended', label: 'unattended: whatever the policy does not refuse runs without asking (hard limits still refuse)' },
];

type BudgetKey = 'sessionBudgetUsd' | 'runBudgetUsd';

/** One dollar budget: empty means none; saved on Save (or Enter). */
function BudgetField({ id, label, hint, value, onSave }: { id: BudgetKey; label: string; hint: string; value: number | undefined; onSave: (v: number | null) => Promise<void> }) {
  const [text, setText] = useState(value !== undefined ? String(value) : '');
  const [invalid, setInvalid] = useState(false);
  const save = async () => {
    const t = text.trim().replace(/^\$/, '');
    const n = Number(t);
    if (t !== '' && !(Number.isFinite(n) && n > 0)) return setInvalid(true);
    setInvalid(false);
    await onSave(t === '' ? null : n);
  };
  return (
    <form className="flex flex-wrap items-end gap-2" onSubmit={(e) => (e.preventDefault(), void save())}>
      <label className="flex flex-col gap-0.5 text-xs">
        {label}
        <input value={text} onChange={(e) => setText(e.target.value)} inputMode="decimal" placeholder="no budget" aria-invalid={invalid || undefined} aria-describedby={`${id}-hint`} data-testid={`budget-${id}`} className={inputClass} />
      </label>
      <Button type="submit" aria-label={`Save the budget ${label.toLowerCase()}`} data-testid={`budget-${id}-save`}>Save</Button>
      <p id={`${id}-hint`} className="w-full text-xs text-slate-600 dark:text-slate-300">{invalid ? 'A budget is a positive number of US dollars (e.g. 2.50), or empty for none.' : hint}</p>
    </form>
  );
}

/** The tool-call mode, approvals policy and dollar budgets new sessions and runs use when they do not choose their own. */
export function AgentDefaults() {
  const client = useClient();
  const current = useRequest('settings.agent.get', {});
  const [saved, setSaved] = useState<Defaults | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = saved ?? current.data;
  const change = async (c: AgentDefaultsChange) => {
    try {
      setSaved(await client.request('settings.agent.set', c));
      setError(null);
    } catch (err) {
      setError(`Could not save: ${messageOf(err)}`);
    }
  };
  return (
    <section aria-labelledby="agent-h" className="flex flex-col gap-3 text-sm" data-testid="agent-defaults">
      <h3 id="agent-h" className="font-semibold">Tool calls, approvals and budgets</h3>
      {current.status === 'error' && !value ? <ErrorBanner message={`Could not read config.yaml: ${current.error}`} /> : null}
      {value ? (
        <>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 font-medium">Tool-call mode</legend>
            {MODES.map((m) => (
              <label key={m.value} className="flex items-center gap-2">
                <input type="radio" name="tool-mode" checked={value.toolMode === m.value} onChange={() => void change({ toolMode: m.value })} data-testid={`tool-mode-${m.value}`} /> {m.label}
              </label>
            ))}
          </fieldset>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 font-medium">Approvals policy</legend>
            {POLICIES.map((p) => (
              <label key={p.value} className="flex items-center gap-2">
                <input type="radio" name="approvals" checked={value.approvals === p.value} onChange={() => void change({ approvals: p.value })} data-testid={`approvals-${p.value}`} /> {p.label}
              </label>
            ))}
          </fieldset>
          <fieldset className="flex flex-col gap-2" data-testid="budgets">
            <legend className="mb-1 font-medium">Budgets in US dollars (priced cache-aware; only for models with known prices)</legend>
            <BudgetField id="sessionBudgetUsd" label="Per session" hint="A session stops cleanly once it has cost this much (a session's own budget wins)." value={value.sessionBudgetUsd} onSave={(v) => change({ sessionBudgetUsd: v })} />
            <BudgetField id="runBudgetUsd" label="Per workflow run" hint="A run stops before its next step once its steps have cost this much; each step gets what is left." value={value.runBudgetUsd} onSave={(v) => change({ runBudgetUsd: v })} />
          </fieldset>
        </>
      ) : null}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </section>
  );
}
