import { useCallback, useEffect, useState } from 'react';
import type { ProjectTrustFile } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';

/**
 * What the project folder brings (.erasmus/mcp.json, settings.json, protocols) and is not trusted yet.
 * Until the user trusts the content shown here, Erasmus ignores those files: nothing starts, no
 * guardrail is lowered. Trust is for this exact content (a later change asks again).
 */
export function TrustCard({ projectDir }: { projectDir: string }) {
  const client = useClient();
  const [files, setFiles] = useState<ProjectTrustFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setFiles((await client.request('project.trust.list', { path: projectDir })).files);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [client, projectDir]);
  useEffect(() => void load(), [load]);
  const pending = files.filter((f) => !f.trusted);
  if (!pending.length && !error) return null;
  const trust = async () => {
    try {
      setFiles((await client.request('project.trust.grant', { path: projectDir, files: pending.map((f) => ({ path: f.path, sha256: f.sha256 })) })).files);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
      void load();
    }
  };
  return (
    <section aria-label="Files this project brings" className="rounded border border-amber-400 p-4 dark:border-amber-600" data-testid="trust-card">
      <h3 className="font-semibold">This folder brings its own Erasmus configuration</h3>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Erasmus ignores these files until you trust them: servers they name do not start, settings they hold do not apply. Read them first.
      </p>
      {error ? <ErrorBanner message={error} /> : null}
      {pending.map((f) => (
        <details key={f.path} open className="mt-2">
          <summary className="font-mono text-sm">{f.path}</summary>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-900" data-testid="trust-file">{f.text}</pre>
        </details>
      ))}
      <div className="mt-3">
        <Button onClick={() => void trust()} data-testid="trust-grant">Trust {pending.length === 1 ? 'this file' : `these ${pending.length} files`}</Button>
      </div>
    </section>
  );
}
