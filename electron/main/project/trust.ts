import { createHash } from 'node:crypto';
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../common/fs';
import { resolveHome } from '../paths/index';

/**
 * Trust for what a repository brings. A cloned folder may hold `.erasmus/mcp.json` (servers to start),
 * `.erasmus/settings.json` (runner guardrails) and `.erasmus/protocols/*.md` (the prompts a workflow
 * sends). None of them takes effect until the user has seen it and trusted it; trust is remembered by
 * the file's content hash, so any change to the file needs new trust. Every face reads project files
 * through `ProjectTrust.read`, the one gate (the MCP config loader, runner settings, protocols).
 */
export const PROJECT_CONFIG_FILES = ['.erasmus/mcp.json', '.erasmus/settings.json'] as const;
export const PROJECT_PROTOCOLS_DIR = '.erasmus/protocols';

const Store = z.object({ projects: z.record(z.string(), z.record(z.string(), z.string())) });
type Store = z.infer<typeof Store>;

export interface ProjectFile {
  /** Relative to the project folder, with forward slashes (e.g. `.erasmus/mcp.json`). */
  path: string;
  sha256: string;
  trusted: boolean;
  text: string;
}

/** A project file that exists and is not trusted: what to tell the user, and how to recover. */
export class UntrustedProjectFileError extends Error {
  constructor(
    readonly projectDir: string,
    readonly file: string,
  ) {
    super(
      `${file} in ${projectDir} came with the project and is not trusted yet, so Erasmus ignores it. ` +
        `Review it, then trust it: \`erasmus trust ${JSON.stringify(projectDir)}\` or the trust card in the app's project view.`,
    );
    this.name = 'UntrustedProjectFileError';
  }
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function canonical(dir: string): Promise<string> {
  return realpath(resolve(dir)).catch(() => resolve(dir));
}

/** Remembers trusted project files by content hash, in ERASMUS_HOME/trust/projects.json. */
export class ProjectTrust {
  constructor(readonly file: string) {}

  /** The store for ERASMUS_HOME (from the environment when not given). */
  static forHome(home: string = resolveHome()): ProjectTrust {
    return new ProjectTrust(join(home, 'trust', 'projects.json'));
  }

  private async load(): Promise<Store> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { projects: {} };
      throw err;
    }
    const r = Store.safeParse(JSON.parse(text));
    if (!r.success) throw new Error(`${this.file} is not a project trust file: ${r.error.issues[0]?.message}; delete it to trust projects anew`);
    return r.data;
  }

  async isTrusted(projectDir: string, rel: string, text: string): Promise<boolean> {
    const store = await this.load();
    return store.projects[await canonical(projectDir)]?.[rel] === sha256(text);
  }

  /**
   * Reads a project file through the gate: undefined when it does not exist, its text when trusted,
   * and UntrustedProjectFileError when it exists but the user has not trusted this content.
   */
  async read(projectDir: string, rel: string): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(join(projectDir, rel), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw err;
    }
    if (!(await this.isTrusted(projectDir, rel, text))) throw new UntrustedProjectFileError(projectDir, rel);
    return text;
  }

  /** Every file the project brings, with its content and whether that content is trusted. */
  async files(projectDir: string): Promise<ProjectFile[]> {
    const rels: string[] = [...PROJECT_CONFIG_FILES];
    const protocols = await readdir(join(projectDir, PROJECT_PROTOCOLS_DIR)).catch(() => [] as string[]);
    for (const name of protocols.sort()) if (name.endsWith('.md')) rels.push(`${PROJECT_PROTOCOLS_DIR}/${name}`);
    const store = await this.load();
    const trusted = store.projects[await canonical(projectDir)] ?? {};
    const out: ProjectFile[] = [];
    for (const rel of rels) {
      const text = await readFile(join(projectDir, rel), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const hash = sha256(text);
      out.push({ path: rel, sha256: hash, trusted: trusted[rel] === hash, text });
    }
    return out;
  }

  /**
   * Trusts the given files' current content (default: every file the project brings). `expect` pins
   * hashes the user saw: a file that changed since it was shown is not trusted.
   */
  async trust(projectDir: string, opts: { files?: string[]; expect?: Record<string, string> } = {}): Promise<ProjectFile[]> {
    const all = await this.files(projectDir);
    const chosen = opts.files ? all.filter((f) => opts.files!.includes(f.path)) : all;
    const unknown = (opts.files ?? []).filter((p) => !all.some((f) => f.path === p));
    if (unknown.length) throw new Error(`not a file this project brings: ${unknown.join(', ')} (known: ${all.map((f) => f.path).join(', ') || 'none'})`);
    for (const f of chosen) {
      const seen = opts.expect?.[f.path];
      if (seen !== undefined && seen !== f.sha256) throw new Error(`${f.path} changed since it was shown; review it again before trusting it`);
    }
    const store = await this.load();
    const key = await canonical(projectDir);
    const entry = (store.projects[key] ??= {});
    for (const f of chosen) entry[f.path] = f.sha256;
    await writeJsonAtomic(this.file, store);
    return chosen.map((f) => ({ ...f, trusted: true }));
  }

  /** Records text Erasmus itself wrote on the user's behalf (the settings editor) as trusted. */
  async trustText(projectDir: string, rel: string, text: string): Promise<void> {
    const store = await this.load();
    (store.projects[await canonical(projectDir)] ??= {})[rel] = sha256(text);
    await writeJsonAtomic(this.file, store);
  }

  async revoke(projectDir: string): Promise<boolean> {
    const store = await this.load();
    const key = await canonical(projectDir);
    if (!store.projects[key]) return false;
    delete store.projects[key];
    await writeJsonAtomic(this.file, store);
    return true;
  }
}
