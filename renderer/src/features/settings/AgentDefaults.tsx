import { useState } from 'react';
import type { AgentDefaults as Defaults } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { messageOf } from './fields';

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

/** The tool-call mode and approvals policy new sessions use when they do not choose their own. */
export function AgentDefaults() {
  const client = useClient();
  const current = useRequest('settings.agent.get', {});
  const [saved, setSaved] = useState<Defaults | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = saved ?? current.data;
  const change = async (c: Partial<Defaults>) => {
    try {
      setSaved(await client.request('settings.agent.set', c));
      setError(null);
    } catch (err) {
      setError(`Could not save: ${messageOf(err)}`);
    }
  };
  return (
    <section aria-labelledby="agent-h" className="flex flex-col gap-3 text-sm" data-testid="agent-defaults">
      <h3 id="agent-h" className="font-semibold">Tool calls and approvals</h3>
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
        </>
      ) : null}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </section>
  );
}
