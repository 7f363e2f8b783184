import { useState } from 'react';
import type { RunnerSettingsView } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { messageOf } from './fields';

/** The open project's command rewriting rules and script review (`<project>/.erasmus/settings.json`). */
export function RewriteRules({ project }: { project?: string }) {
  return (
    <section aria-labelledby="rules-h" className="flex flex-col gap-2 text-sm" data-testid="rewrite-rules">
      <h3 id="rules-h" className="font-semibold">Command rewriting and script review</h3>
      {project ? <ProjectRules project={project} /> : <p className="text-slate-600 dark:text-slate-400" data-testid="rules-empty">Open a project to choose its rewriting rules and script review: they are kept per project.</p>}
    </section>
  );
}

function ProjectRules({ project }: { project: string }) {
  const client = useClient();
  const current = useRequest('settings.runners.get', { project });
  const [saved, setSaved] = useState<RunnerSettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value = saved?.project === project ? saved : current.data;
  const change = async (c: { review?: boolean; enable?: string[]; disable?: string[] }) => {
    try {
      setSaved(await client.request('settings.runners.set', { project, ...c }));
      setError(null);
    } catch (err) {
      setError(`Could not save: ${messageOf(err)}`);
    }
  };
  return (
    <>
      <p className="text-slate-600 dark:text-slate-400">Saved in <code>{value?.file ?? `${project}/.erasmus/settings.json`}</code>. A rule applies only when its tool (uv, pnpm…) is installed.</p>
      {current.status === 'error' && !value ? <ErrorBanner message={current.error} /> : null}
      {value ? (
        <>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={value.review} onChange={(e) => void change({ review: e.target.checked })} data-testid="script-review" />
            Review scripts, Dockerfiles and git changes with the model before they run
          </label>
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 font-medium">Rewriting rules</legend>
            {value.rules.map((r) => (
              <label key={r.id} className="flex items-start gap-2">
                <input type="checkbox" className="mt-1" checked={r.enabled} onChange={(e) => void change(e.target.checked ? { enable: [r.id] } : { disable: [r.id] })} data-testid={`rule-${r.id}`} />
                <span><code className="font-mono">{r.id}</code> <span className="text-slate-600 dark:text-slate-400">{r.description}</span></span>
              </label>
            ))}
          </fieldset>
        </>
      ) : null}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </>
  );
}
