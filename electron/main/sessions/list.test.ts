import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from './list';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const line = (o: object) => JSON.stringify({ v: 1, id: 'x', ...o }) + '\n';
async function log(name: string, project: string | undefined, task: string | undefined, at: number) {
  const header = line({ type: 'header', at, sessionId: name, provider: 'p', model: 'm', toolMode: 'native', ...(project ? { project } : {}) });
  const user = task === undefined ? '' : line({ type: 'message', at: at + 1, message: { id: 'm1', role: 'user', content: task } });
  await writeFile(join(dir!, `${name}.jsonl`), header + line({ type: 'message', at, message: { id: 's', role: 'system', content: 'sys' } }) + user);
  await utimes(join(dir!, `${name}.jsonl`), at / 1000, at / 1000);
}

describe('listSessions', () => {
  it('lists logged sessions newest first with project, start and task; filters by project; skips what it cannot read', async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-sessions-'));
    await log('s-old', '/p/a', 'Write a haiku\nabout tests', 1_000_000);
    await log('s-new', '/p/a', undefined, 3_000_000);
    await log('s-other', '/p/b', 'Other project', 2_000_000);
    await writeFile(join(dir, 'broken.jsonl'), 'not json\n');
    expect(await listSessions(dir, { limit: 10 })).toEqual([
      { sessionId: 's-new', project: '/p/a', startedAt: 3_000_000, modified: 3_000_000 },
      { sessionId: 's-other', project: '/p/b', task: 'Other project', startedAt: 2_000_000, modified: 2_000_000 },
      { sessionId: 's-old', project: '/p/a', task: 'Write a haiku', startedAt: 1_000_000, modified: 1_000_000 },
    ]);
    expect((await listSessions(dir, { project: '/p/a', limit: 1 })).map((s) => s.sessionId)).toEqual(['s-new']);
    expect(await listSessions(join(dir, 'missing'), { limit: 10 })).toEqual([]);
  });
});
