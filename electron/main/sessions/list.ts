import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionSummary } from '../../contract/index';

/** How much of a log's beginning is read for its header and first user message. */
const HEAD_BYTES = 64 * 1024;

async function head(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

/**
 * The logged sessions (ERASMUS_HOME/sessions/*.jsonl), newest first: each one's project, start and the
 * first line of its first user message, read from the log's beginning. With `project`, only that
 * project's. A log that cannot be read is left out.
 */
export async function listSessions(dir: string, opts: { project?: string; limit: number }): Promise<SessionSummary[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'));
  const stamped = await Promise.all(names.map(async (n) => ({ n, modified: await stat(join(dir, n)).then((s) => s.mtimeMs, () => 0) })));
  const out: SessionSummary[] = [];
  for (const { n, modified } of stamped.sort((a, b) => b.modified - a.modified)) {
    if (out.length >= opts.limit) break;
    let text: string;
    try {
      text = await head(join(dir, n));
    } catch {
      continue;
    }
    let project: string | undefined;
    let startedAt: number | undefined;
    let task: string | undefined;
    for (const line of text.split('\n')) {
      let e: { type?: string; at?: number; project?: string; message?: { role?: string; content?: unknown } };
      try {
        e = JSON.parse(line) as typeof e;
      } catch {
        continue; // the cut last line, or a torn one
      }
      if (e.type === 'header') {
        project = e.project;
        startedAt = e.at;
      } else if (e.type === 'message' && e.message?.role === 'user' && typeof e.message.content === 'string') {
        task = e.message.content.trim().split('\n')[0]!.slice(0, 200);
        break;
      }
    }
    if (startedAt === undefined) continue;
    if (opts.project && project !== opts.project) continue;
    out.push({ sessionId: n.slice(0, -'.jsonl'.length), ...(project ? { project } : {}), ...(task ? { task } : {}), startedAt, modified });
  }
  return out;
}
