import type { ProjectSummary } from '../../../../electron/contract/index';
import { useState } from 'react';
import { MadeRepository, MakeRepository } from './MakeRepository';

const chip = 'rounded-full bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800';

/** What Erasmus found in a folder: git, marker files, and the runners that follow from them. */
export function ProjectFacts({ project }: { project: ProjectSummary }) {
  // Made here (the button): what became of the files there, said once the project reads as a repository.
  const [made, setMade] = useState<string[]>();
  return (
    <section aria-label="What Erasmus found" className="rounded border border-slate-200 p-4 dark:border-slate-800" data-testid="project-facts">
      <h2 className="text-lg font-semibold">{project.name}</h2>
      <p className="font-mono text-xs text-slate-600 dark:text-slate-400">{project.path}</p>
      <dl className="mt-3 grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">Git</dt>
        <dd data-testid="project-git">{!project.git ? <MakeRepository path={project.path} onMade={setMade} /> : made ? <MadeRepository held={made} /> : 'a git repository'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Toolchain files</dt>
        <dd className="flex flex-wrap gap-1" data-testid="project-markers">{project.markers.length ? project.markers.map((m) => <span key={m} className={chip}>{m}</span>) : `none yet (such as package.json, pyproject.toml or Cargo.toml): ${project.git ? 'the runners for bash and git are' : 'the runner for bash is'} there from the start`}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Runners</dt>
        <dd className="flex flex-wrap gap-1" data-testid="project-runners">{project.runners.length ? project.runners.map((r) => <span key={r} className={chip}>{r}</span>) : 'none'}</dd>
      </dl>
    </section>
  );
}
