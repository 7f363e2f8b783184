import { useEffect, useState } from 'react';
import type { WorkflowDriftDocument } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { DirtyTreeChoices, dirtyFiles, type DirtyTree } from './DirtyTree';

/**
 * The project's documents whose subject changed since the commit they describe (`workflow.drift`, re-read when `version`
 * changes), and one action that brings exactly those up to date: a documentation run, as `erasmus workflow drift --fix`.
 */
export function DriftNotice({ projectDir, version, onFix }: { projectDir: string; version: string; onFix: (dirtyTree?: DirtyTree) => Promise<void> }) {
  const client = useClient();
  const [docs, setDocs] = useState<WorkflowDriftDocument[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dirty, setDirty] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    client.request('workflow.drift', { projectDir }).then(
      (r) => live && setDocs(r.documents),
      () => live && setDocs([]),
    );
    return () => {
      live = false;
    };
  }, [client, projectDir, version]);
  if (!docs.length) return null;
  const fix = async (dirtyTree?: DirtyTree) => {
    setBusy(true);
    setError(null);
    setDirty(null);
    try {
      await onFix(dirtyTree);
    } catch (err) {
      const files = dirtyFiles(err);
      if (files) setDirty(files);
      else setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="drift-h" className="flex flex-col gap-2 rounded border border-amber-300 p-4 text-sm dark:border-amber-800" data-testid="drift">
      <h3 id="drift-h" className="font-medium">Documents out of date</h3>
      <p>The code changed since these documents were written:</p>
      <ul className="flex flex-col gap-1 pl-4">
        {docs.map((d) => (
          <li key={d.path} data-testid={`drift-${d.component ?? d.doc}`}>
            {d.doc === 'architecture' ? 'The architecture' : `Component ${d.component}`} describes commit <code className="font-mono text-xs">{d.commit.slice(0, 10)}</code>; changed since: {d.changed.join(', ')}
          </li>
        ))}
      </ul>
      {dirty ? <DirtyTreeChoices files={dirty} busy={busy} onChoose={(c) => void fix(c)} /> : null}
      {error ? <p role="alert" className="text-red-700 dark:text-red-300">{error}</p> : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void fix()} disabled={busy} data-testid="drift-fix">
          {busy ? 'Starting…' : 'Bring them up to date'}
        </Button>
        <span className="text-xs text-slate-600 dark:text-slate-400">A documentation step for each, then one commit of what they wrote.</span>
      </div>
    </section>
  );
}
