import type { ProjectSummary } from '../../../../electron/contract/index';
import { useServices } from '../../app/services';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { useStore } from '../../ui/store';
import { ActiveModel } from './ActiveModel';
import { AlwaysAllowedCard } from './AlwaysAllowedCard';
import { ProjectFacts } from './ProjectFacts';
import { RunPanel } from './RunPanel';
import { StartRun } from './StartRun';
import { TrustCard } from './TrustCard';

/** The open project: what was found in it, and its workflow run (started or resumed here). */
export function ProjectView({ project, onClose, onOpenTimeline, onOpenSettings = () => {}, onOpenServers = () => {} }: { project: ProjectSummary; onClose: () => void; onOpenTimeline: () => void; onOpenSettings?: () => void; onOpenServers?: () => void }) {
  const { run } = useServices();
  const state = useStore(run.store, (s) => s);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4" data-testid="project-view">
      <div className="flex items-start gap-3">
        <div className="flex-1"><ProjectFacts key={project.path} project={project} /></div>
        <Button onClick={onClose} data-testid="close-project">Open another…</Button>
      </div>
      <TrustCard projectDir={project.path} />
      <AlwaysAllowedCard projectDir={project.path} />
      <ActiveModel onOpenSettings={onOpenSettings} />
      {state.kind === 'loading' ? <p className="text-sm text-slate-600 dark:text-slate-400">Looking for this project's workflow…</p> : null}
      {state.kind === 'error' ? <ErrorBanner message={`Could not read the workflow: ${state.message}`} /> : null}
      {state.kind === 'none' ? <StartRun onStart={(executor, autoApprove, dirtyTree) => run.start(project.path, executor, { autoApprove, ...(dirtyTree ? { dirtyTree } : {}) })} onOpenSettings={onOpenSettings} onOpenServers={onOpenServers} /> : null}
      {state.kind === 'run' ? <RunPanel view={state.view} onOpenTimeline={onOpenTimeline} /> : null}
    </div>
  );
}
