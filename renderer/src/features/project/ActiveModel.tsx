import { useState } from 'react';
import { providerDisplayName, type ResultOf } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';

type Probe = ResultOf<'settings.providers.test'>;

/**
 * Which model the agent will use, with "Test connection"; with no provider configured, the one next
 * step: set one up in Settings (nothing else works without it).
 */
export function ActiveModel({ onOpenSettings }: { onOpenSettings: () => void }) {
  const client = useClient();
  const providers = useRequest('settings.providers.list', {});
  const [probe, setProbe] = useState<Probe | 'busy' | null>(null);
  if (providers.status !== 'ok' || !providers.data) return null;
  const { defaultProvider, providers: list } = providers.data;
  const active = list.find((p) => p.id === defaultProvider) ?? list[0];
  if (!active) {
    return (
      <section className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm dark:border-amber-600 dark:bg-amber-950" data-testid="no-provider">
        <p className="flex-1">Erasmus needs a model provider (OpenAI, Anthropic, Ollama, …) before the agent can work.</p>
        <Button variant="primary" onClick={onOpenSettings} data-testid="setup-provider">Set up a provider</Button>
      </section>
    );
  }
  const test = async () => {
    setProbe('busy');
    try {
      setProbe(await client.request('settings.providers.test', { id: active.id }));
    } catch (e) {
      setProbe({ ok: false, provider: active.id, model: active.model, message: (e as Error).message, ms: 0 });
    }
  };
  return (
    <section className="flex flex-wrap items-center gap-3 text-sm" aria-label="Model" data-testid="active-model">
      <span>
        <span className="text-slate-600 dark:text-slate-400">Model: </span>
        <span className="font-medium">{active.model}</span> <span className="text-slate-600 dark:text-slate-400" title={`provider ${active.id} in config.yaml`}>via {providerDisplayName(active)}</span>
      </span>
      <Button onClick={() => void test()} disabled={probe === 'busy'} data-testid="test-connection">{probe === 'busy' ? 'Testing…' : 'Test connection'}</Button>
      {probe && probe !== 'busy' ? (
        <span role="status" data-testid="connection-result" data-ok={probe.ok} className={probe.ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}>
          {probe.ok ? `Connected (${probe.ms} ms): “${probe.message}”` : `Failed: ${probe.message}`}
        </span>
      ) : null}
      <button type="button" onClick={onOpenSettings} className="text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300">Change…</button>
    </section>
  );
}
