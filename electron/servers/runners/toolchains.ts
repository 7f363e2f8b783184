// Which toolchains' tools the runners list for a project: bash and git always; uv, pnpm, cargo and
// docker where the project shows them (its marker files; pnpm only where pnpm-lock.yaml names it)
// or the user's settings ask for them (`.erasmus/settings.json` → `runners.toolchains`), and only
// where the program is on PATH. The others stay callable by name, and a call to one whose program
// is missing answers how to install it.
import { readdirSync, readFileSync } from 'node:fs';
import { toolchainsOfEntries } from '../../main/project/inspect';
import { onPath } from '../../main/runners/rewrite/index';
import { projectSettingsFile } from '../../main/runners/settings';
import type { Toolset } from './tool';

const ALWAYS: Toolset[] = ['bash', 'git'];

/** The program each toolchain runs, and how a user gets it. */
export const TOOLCHAIN_PROGRAMS: Record<Exclude<Toolset, 'bash'>, { program: string; install: string }> = {
  git: { program: 'git', install: 'install git with the system package manager (apt-get install git, brew install git, winget install Git.Git)' },
  uv: { program: 'uv', install: 'install uv: curl -LsSf https://astral.sh/uv/install.sh | sh (or pipx install uv; see https://docs.astral.sh/uv/getting-started/installation/)' },
  pnpm: { program: 'pnpm', install: 'install pnpm: corepack enable pnpm (or npm install -g pnpm; see https://pnpm.io/installation)' },
  cargo: { program: 'cargo', install: 'install Rust and cargo with rustup: curl https://sh.rustup.rs -sSf | sh (see https://rustup.rs)' },
  docker: { program: 'docker', install: 'install Docker: https://docs.docker.com/engine/install/ (Docker Desktop on macOS and Windows)' },
};

/** Whether a toolchain's program can run here (bash always can: commands run in it). */
export function toolchainAvailable(t: Toolset, available: (program: string) => boolean = onPath): boolean {
  return t === 'bash' || available(TOOLCHAIN_PROGRAMS[t].program);
}

/** What a call to a tool of a missing toolchain answers: the program is not there, and how to get it. */
export function missingToolchainText(t: Toolset): string {
  if (t === 'bash') return '';
  const { program, install } = TOOLCHAIN_PROGRAMS[t];
  return `Not run: ${program} is not installed on this machine (it is not on PATH), so the ${t} tools cannot run. Ask the user to ${install}; meanwhile use the tools the project has (bash_run).`;
}

/** The toolsets a project shows and this machine can run, read now (the server is made for one root). */
export function listedToolchains(root: string, available: (program: string) => boolean = onPath): Set<Toolset> {
  const out = new Set<Toolset>(ALWAYS);
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    // An unreadable root lists only the always-listed toolsets.
  }
  // (package.json alone is an npm project: toolchainsOfEntries names pnpm only for pnpm-lock.yaml.)
  for (const t of toolchainsOfEntries(entries)) out.add(t as Toolset);
  for (const t of settingsToolchains(root)) out.add(t);
  for (const t of out) if (!toolchainAvailable(t, available)) out.delete(t);
  return out;
}

/** `runners.toolchains` of the project's settings; a missing or malformed file adds nothing (loadRunnerSettings reports it). */
function settingsToolchains(root: string): Toolset[] {
  try {
    const json = JSON.parse(readFileSync(projectSettingsFile(root), 'utf8')) as { runners?: { toolchains?: unknown } };
    const list = json.runners?.toolchains;
    return Array.isArray(list) ? list.filter((x): x is Toolset => ['bash', 'git', 'pnpm', 'cargo', 'uv', 'docker'].includes(x as string)) : [];
  } catch {
    return [];
  }
}
