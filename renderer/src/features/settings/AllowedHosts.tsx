import { useState, type FormEvent } from 'react';
import type { RunnerSettingsView } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { messageOf } from './fields';

/**
 * The open project's allowed hosts: what a command the user accepted as needing the network (npm
 * install, pip install, curl…) reaches through the sandbox's proxy. Nothing else is reachable.
 */
export function AllowedHosts({ project }: { project?: string }) {
  return (
    <section aria-labelledby="hosts-h" className="flex flex-col gap-2 text-sm" data-testid="allowed-hosts">
      <h3 id="hosts-h" className="font-semibold">Allowed hosts</h3>
      {project ? <ProjectHosts project={project} /> : <p className="text-slate-600 dark:text-slate-400" data-testid="hosts-empty">Open a project to choose the hosts its commands may reach: they are kept per project.</p>}
    </section>
  );
}

function ProjectHosts({ project }: { project: string }) {
  const client = useClient();
  const current = useRequest('settings.runners.get', { project });
  const [saved, setSaved] = useState<RunnerSettingsView | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const value = saved?.project === project ? saved : current.data;
  const change = async (c: { allowHosts?: string[]; disallowHosts?: string[] }) => {
    try {
      setSaved(await client.request('settings.runners.set', { project, ...c }));
      setError(null);
      return true;
    } catch (err) {
      setError(`Could not save: ${messageOf(err)}`);
      return false;
    }
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const host = draft.trim();
    if (host && (await change({ allowHosts: [host] }))) setDraft('');
  };
  return (
    <>
      <p className="text-slate-600 dark:text-slate-400">
        Commands run without network. One that needs it (an install, a download) asks you, and then reaches only these hosts, through Erasmus’s proxy. A name allows ports 80 and 443;
        <code className="font-mono"> *.example.com</code> its subdomains; <code className="font-mono">host:port</code> that port only.
      </p>
      {current.status === 'error' && !value ? <ErrorBanner message={current.error} /> : null}
      {value ? (
        <ul className="flex flex-col gap-1" data-testid="hosts-list">
          {value.allowedHosts.length ? null : <li className="text-slate-600 dark:text-slate-400">None: commands reach no host.</li>}
          {value.allowedHosts.map((h) => (
            <li key={h} className="flex items-center gap-2">
              <code className="font-mono">{h}</code>
              <Button variant="ghost" onClick={() => void change({ disallowHosts: [h] })} data-testid={`host-remove-${h}`} aria-label={`Remove ${h}`}>Remove</Button>
            </li>
          ))}
        </ul>
      ) : null}
      <form className="flex items-center gap-2" onSubmit={(e) => void add(e)}>
        <label htmlFor="host-new" className="sr-only">Host to allow</label>
        <input id="host-new" className="rounded border border-slate-300 px-2 py-1 font-mono dark:border-slate-600 dark:bg-slate-900" placeholder="registry.npmjs.org" value={draft} onChange={(e) => setDraft(e.target.value)} data-testid="host-new" />
        <Button type="submit" disabled={!draft.trim()} data-testid="host-add">Allow</Button>
      </form>
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </>
  );
}
