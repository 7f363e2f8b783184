import { readFile, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { RunnerSettingsView } from '../../contract/index';
import { writeFileAtomic } from '../common/fs';
import { REWRITE_RULES } from '../runners/rewrite/index';
import { ProjectTrust } from '../project/trust';
import { AllowedHost, loadRunnerSettings, PROJECT_SETTINGS, projectSettingsFile, RunnerSettings } from '../runners/settings';
import { SettingsError } from './errors';

async function projectRoot(project: string): Promise<string> {
  if (!isAbsolute(project)) throw new SettingsError(`project must be an absolute path, got "${project}"`, 'project');
  const s = await stat(project).catch(() => null);
  if (!s?.isDirectory()) throw new SettingsError(`project ${project} is not a folder`, 'project');
  return project;
}

/** The project's rewrite rules (on or off) and script-review switch, from `<project>/.erasmus/settings.json`. */
export async function getRunnerSettings(project: string, trust: ProjectTrust = ProjectTrust.forHome()): Promise<RunnerSettingsView> {
  const root = await projectRoot(project);
  let settings: RunnerSettings;
  try {
    settings = await loadRunnerSettings(root, trust);
  } catch (err) {
    throw new SettingsError((err as Error).message);
  }
  const off = new Set(settings.rewrite.disabled);
  return {
    project: root,
    file: projectSettingsFile(root),
    review: settings.review,
    rules: REWRITE_RULES.map((r) => ({ id: r.id, description: r.description, enabled: !off.has(r.id) })),
    allowedHosts: settings.network.allowedHosts,
  };
}

export interface RunnerChanges {
  review?: boolean;
  enable?: string[];
  disable?: string[];
  allowHosts?: string[];
  disallowHosts?: string[];
}

const queues = new Map<string, Promise<unknown>>();

/** Changes the `runners` key of the project's settings.json; the file's other keys are kept as they are. */
export function setRunnerSettings(project: string, changes: RunnerChanges, trust: ProjectTrust = ProjectTrust.forHome()): Promise<RunnerSettingsView> {
  const next = (queues.get(project) ?? Promise.resolve()).then(async () => {
    const root = await projectRoot(project);
    const known = new Set<string>(REWRITE_RULES.map((r) => r.id));
    const unknown = [...(changes.enable ?? []), ...(changes.disable ?? [])].filter((id) => !known.has(id));
    if (unknown.length) throw new SettingsError(`unknown rewrite rule(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`, 'rules');
    const badHost = (changes.allowHosts ?? []).find((h) => !AllowedHost.safeParse(h.trim()).success);
    if (badHost !== undefined) throw new SettingsError(`"${badHost}" is not an allowed host: ${AllowedHost.safeParse(badHost.trim()).error!.issues[0]!.message}`, 'allowHosts');
    const file = projectSettingsFile(root);
    let json: Record<string, unknown> = {};
    try {
      const text = await readFile(file, 'utf8');
      const parsed: unknown = JSON.parse(text);
      // Writing would make the repository's own content (say, allowDangerous) the user's: trust comes first.
      if (!(await trust.isTrusted(root, PROJECT_SETTINGS, text)))
        throw new SettingsError(`${file} came with the project and is not trusted yet; review it and trust it first (\`erasmus trust ${JSON.stringify(root)}\` or the trust card in the project view), nothing was changed`);
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
    if (changes.allowHosts?.length || changes.disallowHosts?.length) {
      const hosts = new Set(current.data.network.allowedHosts);
      for (const h of changes.allowHosts ?? []) hosts.add(h.trim().toLowerCase());
      for (const h of changes.disallowHosts ?? []) hosts.delete(h.trim().toLowerCase());
      runners.network = { allowedHosts: [...hosts] };
    }
    if (changes.review !== undefined) runners.review = changes.review;
    const out = JSON.stringify({ ...json, runners }, null, 2) + '\n';
    await writeFileAtomic(file, out);
    await trust.trustText(root, PROJECT_SETTINGS, out); // the user's own change, made here
    return getRunnerSettings(root, trust);
  });
  queues.set(project, next.catch(() => undefined));
  return next;
}
