import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from './errors';
import type { Paths } from '../../main/paths/index';

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const DOC_URI = /^erasmus:\/\/projects\/([^/]+)\/(orchestration|components)\/([^/]+)\.md$/;
export const DOC_SECTIONS = ['orchestration', 'components'] as const;

export interface DocRef {
  key: string;
  section: (typeof DOC_SECTIONS)[number];
  name: string;
}

export function docUri(d: DocRef): string {
  return `erasmus://projects/${d.key}/${d.section}/${d.name}.md`;
}

/** Parses a document URI; undefined when it is not one (or names something outside the layout). */
export function parseDocUri(uri: string): DocRef | undefined {
  const m = DOC_URI.exec(uri);
  if (!m || !SAFE.test(m[1]!) || !SAFE.test(m[3]!)) return undefined;
  return { key: m[1]!, section: m[2] as DocRef['section'], name: m[3]! };
}

/**
 * Each project's context documents (ERASMUS_HOME/context/<project-key>/ctx/…) as MCP resources,
 * and the watch behind `resources/subscribe`: a subscribed document that changes on disk (the
 * workflow rewrites it atomically) is announced with `notifications/resources/updated`.
 */
export class ContextDocuments {
  private readonly watched = new Map<string, { file: string; listener: (cur: Stats, prev: Stats) => void } | undefined>();

  constructor(
    private readonly paths: Paths,
    private readonly onUpdated: (uri: string) => void,
    /** Polling interval of the watch (stat-based, so atomic renames and late-created files are seen). */
    private readonly intervalMs = 200,
  ) {}

  file(d: DocRef): string {
    return join(this.paths.home, 'context', d.key, 'ctx', d.section, `${d.name}.md`);
  }

  async list(): Promise<Resource[]> {
    const root = join(this.paths.home, 'context');
    const keys = (await readdir(root, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory() && SAFE.test(e.name)).map((e) => e.name);
    const out: Resource[] = [];
    for (const key of keys.sort()) {
      for (const section of DOC_SECTIONS) {
        const names = (await readdir(join(root, key, 'ctx', section)).catch(() => [] as string[])).filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)).filter((n) => SAFE.test(n));
        for (const name of names.sort()) {
          const d = { key, section, name };
          out.push({
            uri: docUri(d),
            name: `${key}/${section}/${name}.md`,
            title: `${name.replace(/_/g, ' ')} (${key})`,
            description: section === 'orchestration' ? `Orchestration document "${name}" of project ${key}` : `Context document of component "${name}" of project ${key}`,
            mimeType: 'text/markdown',
          });
        }
      }
    }
    return out;
  }

  async read(uri: string): Promise<{ uri: string; mimeType: string; text: string }> {
    const d = parseDocUri(uri);
    if (!d) throw new ProtocolError(ErrorCode.InvalidParams, `not an Erasmus document URI: ${uri} (expected erasmus://projects/<key>/orchestration|components/<name>.md)`);
    try {
      return { uri, mimeType: 'text/markdown', text: await readFile(this.file(d), 'utf8') };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ProtocolError(-32002, `resource not found: ${uri}`, { uri });
      throw err;
    }
  }

  /** Watches a document (it may not exist yet). Other URIs are accepted and never updated. */
  subscribe(uri: string): void {
    if (this.watched.has(uri)) return;
    const d = parseDocUri(uri);
    if (!d) {
      this.watched.set(uri, undefined);
      return;
    }
    const file = this.file(d);
    const listener = (cur: Stats, prev: Stats) => {
      if (cur.mtimeMs !== prev.mtimeMs || cur.size !== prev.size || cur.ino !== prev.ino) this.onUpdated(uri);
    };
    this.watched.set(uri, { file, listener });
    watchFile(file, { interval: this.intervalMs, persistent: false }, listener);
  }

  unsubscribe(uri: string): void {
    const w = this.watched.get(uri);
    this.watched.delete(uri);
    if (w) unwatchFile(w.file, w.listener);
  }

  /**
   * Calls `onChanged` when the set of documents changes (a project or a component document appears
   * or goes), checked every `everyMs`; returns the stop function.
   */
  watchList(onChanged: () => void, everyMs = 1000): () => void {
    let last: string | undefined;
    let busy = false;
    const check = async () => {
      if (busy) return;
      busy = true;
      try {
        const now = (await this.list()).map((r) => r.uri).join('\n');
        if (last !== undefined && now !== last) onChanged();
        last = now;
      } finally {
        busy = false;
      }
    };
    void check();
    const timer = setInterval(() => void check(), everyMs);
    timer.unref();
    this.stopList = () => clearInterval(timer);
    return this.stopList;
  }

  private stopList: (() => void) | undefined;

  get subscriptions(): string[] {
    return [...this.watched.keys()];
  }

  dispose(): void {
    this.stopList?.();
    for (const uri of [...this.watched.keys()]) this.unsubscribe(uri);
  }
}
