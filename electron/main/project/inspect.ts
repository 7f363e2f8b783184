import { readdir, stat, readFile } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { shellQuote } from '../runners/policy/flags';
import type { ProjectSummary } from '../../contract/index';
import { writeJsonAtomic } from '../common/fs';
import { projectKey } from '../paths/index';
import { onPath } from '../runners/rewrite/index';

/** Marker file → runners it brings. */
const MARKERS: Record<string, string[]> = {
  // package.json alone is an npm project (run through bash): pnpm's tools are for a project whose lockfile is pnpm's.
  'package.json': [],
  'pnpm-lock.yaml': ['pnpm'],
  'Cargo.toml': ['cargo'],
  'pyproject.toml': ['uv'],
  'requirements.txt': ['uv'],
  'uv.lock': ['uv'],
  Dockerfile: ['docker'],
  'docker-compose.yml': ['docker'],
  'compose.yaml': ['docker'],
};

/** The toolchains (uv, pnpm, cargo, docker) whose marker files are among a folder's entries. */
export function toolchainsOfEntries(entries: Iterable<string>): string[] {
  const names = new Set(entries);
  return [...new Set(Object.keys(MARKERS).filter((m) => names.has(m)).flatMap((m) => MARKERS[m]!))];
}

/**
 * The project's folder as an absolute path, or an error naming it and what to do: a path that does not exist (a new
 * project's folder is made by the user, with its repository) or that is a file.
 */
export async function projectFolder(path: string): Promise<string> {
  const abs = resolve(path);
  const info = await stat(abs).catch(() => undefined);
  if (!info) throw new Error(`project folder not found: ${abs}. Give an existing folder; for a new project, make it first (mkdir -p ${shellQuote(abs)} && git -C ${shellQuote(abs)} init)`);
  if (!info.isDirectory()) throw new Error(`not a folder: ${abs}. Give the project's folder, not a file in it`);
  return abs;
}

/** Looks at a folder and says what it is (runners whose program `available` finds); the error names the path when it is not a folder. */
export async function inspectProject(path: string, available: (program: string) => boolean = onPath): Promise<ProjectSummary> {
  if (!isAbsolute(path)) throw new Error(`project path must be absolute: ${path}`);
  const abs = await projectFolder(path);
  const entries = new Set(await readdir(abs));
  const markers = Object.keys(MARKERS).filter((m) => entries.has(m));
  const runners = new Set<string>(['bash']);
  for (const m of markers) for (const r of MARKERS[m]!) runners.add(r);
  const git = entries.has('.git');
  if (git) runners.add('git');
  // A runner is listed only where its program is installed, as the runners server offers its tools.
  for (const r of runners) if (r !== 'bash' && !available(r)) runners.delete(r);
  const order = ['uv', 'cargo', 'pnpm', 'bash', 'docker', 'git'];
  return {
    path: abs,
    key: projectKey(abs),
    name: basename(abs) || abs,
    git,
    markers,
    runners: order.filter((r) => runners.has(r)),
  };
}

/** The recent-projects list, newest first, at most 20. */
/** The add in flight per recent-projects file. */
const pendingAdds = new Map<string, Promise<void>>();

export class RecentProjects {
  constructor(private readonly file: string) {}

  async list(): Promise<ProjectSummary[]> {
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8')) as { projects?: ProjectSummary[] };
      return Array.isArray(data.projects) ? data.projects : [];
    } catch {
      return [];
    }
  }

  /** Adds (or moves to the top) a project; adds in one process follow each other, so none is lost. */
  add(project: ProjectSummary): Promise<void> {
    const prior = pendingAdds.get(this.file) ?? Promise.resolve();
    const next = prior.then(async () => {
      const rest = (await this.list()).filter((p) => p.path !== project.path);
      await writeJsonAtomic(this.file, { projects: [project, ...rest].slice(0, 20) });
    });
    const settled = next.catch(() => undefined);
    pendingAdds.set(this.file, settled);
    void settled.then(() => pendingAdds.get(this.file) === settled && pendingAdds.delete(this.file));
    return next;
  }
}

