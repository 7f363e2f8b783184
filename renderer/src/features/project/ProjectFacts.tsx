import type { ProjectSummary } from '../../../../electron/contract/index';

const chip = 'rounded-full bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800';

/** What Erasmus found in a folder: git, marker files, and the runners that follow from them. */
export function ProjectFacts({ project }: { project: ProjectSummary }) {
  return (
    <section aria-label="What Erasmus found" className="rounded border border-slate-200 p-4 dark:border-slate-800" data-testid="project-facts">
      <h2 className="text-lg font-semibold">{project.name}</h2>
      <p className="font-mono text-xs text-slate-600 dark:text-slate-400">{project.path}</p>
      <dl className="mt-3 grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">Git</dt>
        <dd>{project.git ? 'a git repository' : 'not a git repository (commits after each component need one)'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Toolchain files</dt>
        <dd className="flex flex-wrap gap-1" data-testid="project-markers">{project.markers.length ? project.markers.map((m) => <span key={m} className={chip}>{m}</span>) : 'none yet (such as package.json, pyproject.toml or Cargo.toml): the runners for bash and git are there from the start'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Runners</dt>
        <dd className="flex flex-wrap gap-1" data-testid="project-runners">{project.runners.length ? project.runners.map((r) => <span key={r} className={chip}>{r}</span>) : 'none'}</dd>
      </dl>
    </section>
  );
}
