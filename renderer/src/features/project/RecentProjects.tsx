import type { ProjectSummary } from '../../../../electron/contract/index';

/** The folders opened before, newest first; one click (or Enter) opens one again. */
export function RecentProjects({ projects, onOpen }: { projects: ProjectSummary[]; onOpen: (path: string) => void }) {
  if (projects.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No recent projects yet: the folders you open appear here.</p>;
  return (
    <ul className="divide-y divide-slate-200 rounded border border-slate-200 dark:divide-slate-800 dark:border-slate-800" data-testid="recent-projects">
      {projects.map((p) => (
        <li key={p.path}>
          <button type="button" onClick={() => onOpen(p.path)} className="w-full px-3 py-2 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800">
            <span className="font-medium">{p.name}</span>
            <span className="ml-2 font-mono text-xs text-slate-600 dark:text-slate-400">{p.path}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
