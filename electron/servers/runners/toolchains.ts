// Which toolchains' tools the runners list for a project: bash and git always; uv, pnpm, cargo and
// docker where the project shows them (its marker files) or the user's settings ask for them
// (`.erasmus/settings.json` → `runners.toolchains`). The others stay callable by name.
import { readdirSync, readFileSync } from 'node:fs';
import { toolchainsOfEntries } from '../../main/project/inspect';
import { projectSettingsFile } from '../../main/runners/settings';
import type { Toolset } from './tool';

const ALWAYS: Toolset[] = ['bash', 'git'];

/** The toolsets a project shows, read now (the server is made for one root). */
export function listedToolchains(root: string): Set<Toolset> {
  const out = new Set<Toolset>(ALWAYS);
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    // An unreadable root lists only the always-listed toolsets.
  }
  for (const t of toolchainsOfEntries(entries)) out.add(t as Toolset);
  for (const t of settingsToolchains(root)) out.add(t);
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
