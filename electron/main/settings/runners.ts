import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { RunnerSettingsView } from '../../contract/index';
import { writeJsonAtomic } from '../common/fs';
import { REWRITE_RULES } from '../runners/rewrite/index';
import { loadRunnerSettings, projectSettingsFile, RunnerSettings } from '../runners/settings';
import { SettingsError } from './errors';

async function projectRoot(project: string): Promise<string> {
  if (!isAbsolute(project)) throw new SettingsError(`project must be an absolute path, got "${project}"`, 'project');
  const s = await stat(project).catch(() => null);
  if (!s?.isDirectory()) throw new SettingsError(`project ${project} is not a folder`, 'project');
  return project;
}

/** The project's rewrite rules (on or off) and script-review switch, from `<project>/.erasmus/settings.json`. */
export async function getRunnerSettings(project: string): Promise<RunnerSettingsView> {
  const root = await projectRoot(project);
  let settings: RunnerSettings;
  try {
    settings = await loadRunnerSettings(root);
  } catch (err) {
    throw new SettingsError((err as Error).message);
  }
  const off = new Set(settings.rewrite.disabled);
  return {
    project: root,
    file: projectSettingsFile(root),
    review: settings.review,
    rules: REWRITE_RULES.map((r) => ({ id: r.id, description: r.description, enabled: !off.has(r.id) })),
  };
}

export interface RunnerChanges {
  review?: boolean;
  enable?: string[];
  disable?: string[];
}

const queues = new Map<string, Promise<unknown>>();

/** Changes the `runners` key of the project's settings.json; the file's other keys are kept as they are. */
export function setRunnerSettings(project: string, changes: RunnerChanges): Promise<RunnerSettingsView> {
  const next = (queues.get(project) ?? Promise.resolve()).then(async () => {
    const root = await projectRoot(project);
    const known = new Set<string>(REWRITE_RULES.map((r) => r.id));
    const unknown = [...(changes.enable ?? []), ...(changes.disable ?? [])].filter((id) => !known.has(id));
    if (unknown.length) throw new SettingsError(`unknown rewrite rule(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`, 'rules');
    const file = projectSettingsFile(root);
    let json: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SettingsError(`${file} must hold a JSON object; fix it by hand first, nothing was changed`);
      json = parsed as Record<string, unknown>;
    } catch (err) {
      if (err instanceof SettingsError) throw err;
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new SettingsError(`${file} is not valid JSON (${(err as Error).message}); fix it by hand first, nothing was changed`);
    }
    const current = RunnerSettings.safeParse(json.runners ?? {});
    if (!current.success) throw new SettingsError(`${file}: "runners" is invalid (${current.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}); nothing was changed`, 'runners');
    const disabled = new Set(current.data.rewrite.disabled);
    for (const id of changes.enable ?? []) disabled.delete(id);
    for (const id of changes.disable ?? []) disabled.add(id);
    const runners: Record<string, unknown> = { ...(json.runners as Record<string, unknown> | undefined), rewrite: { disabled: [...disabled] } };
    if (changes.review !== undefined) runners.review = changes.review;
    await writeJsonAtomic(file, { ...json, runners });
    return getRunnerSettings(root);
  });
  queues.set(project, next.catch(() => undefined));
  return next;
}
