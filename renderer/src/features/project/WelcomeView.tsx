import { useRef, useState } from 'react';
import type { ProjectSummary } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { DropZone } from './DropZone';
import { PathField } from './PathField';
import { RecentProjects } from './RecentProjects';

/** The first view: drop a folder, choose one, type its path, or pick a recent one. */
export function WelcomeView({ onOpened }: { onOpened: (p: ProjectSummary) => void }) {
  const client = useClient();
  const recent = useRequest('project.recent', {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const pathInput = useRef<HTMLInputElement>(null);

  const open = async (path: string) => {
    setBusy(true);
    setError(null);
    try {
      onOpened(await client.request('project.open', { path }));
    } catch (e) {
      setError(`Could not open ${path}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const choose = async () => {
    setError(null);
    try {
      const r = await client.request('project.chooseFolder', {});
      if (r.path) return void open(r.path);
      if (!r.supported) {
        setHint('This window cannot show a folder dialog (browser mode): type the folder path below.');
        pathInput.current?.focus();
      }
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const noPath = (name: string) => {
    setHint(`The browser does not tell Erasmus where “${name}” is on disk: type its absolute path below.`);
    pathInput.current?.focus();
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-5" data-testid="welcome">
      <h2 className="text-2xl font-semibold">Open a project</h2>
      <DropZone onPath={(p) => void open(p)} onNoPath={noPath} pathForFile={window.erasmus?.pathForFile} />
      {/* Only the desktop can show a folder dialog; in a browser the path is typed. */}
      {window.erasmus ? (
        <div className="flex items-center gap-3">
          <Button variant="primary" onClick={() => void choose()} disabled={busy} data-testid="choose-folder">
            Open folder…
          </Button>
          <span className="text-sm text-slate-600 dark:text-slate-400">or type a path:</span>
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">Type the folder’s absolute path (a browser cannot show a folder dialog):</p>
      )}
      {hint ? <p className="text-sm text-amber-700 dark:text-amber-400" role="status">{hint}</p> : null}
      <PathField onOpen={(p) => void open(p)} busy={busy} inputRef={pathInput} />
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      <section aria-label="Recent projects">
        <h3 className="mb-2 font-medium">Recent</h3>
        {recent.status === 'error' ? <ErrorBanner message={`Could not list recent projects: ${recent.error}`} /> : null}
        {recent.data ? <RecentProjects projects={recent.data.projects} onOpen={(p) => void open(p)} /> : recent.status === 'loading' ? <p className="text-sm text-slate-600 dark:text-slate-400">Loading…</p> : null}
      </section>
    </div>
  );
}
