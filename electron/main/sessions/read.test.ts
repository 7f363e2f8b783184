import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLog } from './log';
import { exportSession, readSessionLog, restoreContext } from './read';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-sessions-'));
  path = join(dir, 's.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sample(): SessionLog {
  const log = new SessionLog(path, { fsync: 'none' });
  log.append({ type: 'header', sessionId: 's', provider: 'p', model: 'm', toolMode: 'native' });
  log.append({ type: 'message', message: { role: 'system', content: 'sys' } });
  log.append({ type: 'message', message: { role: 'user', content: 'task' } });
  log.append({ type: 'message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 't', args: {} }, { id: 'c2', name: 't', args: { a: 1 } }] } });
  log.append({ type: 'message', message: { role: 'tool', toolCallId: 'c1', name: 't', content: 'one' } });
  return log;
}

describe('session logs', () => {
  it('restores the context, closing calls that never got a result', () => {
    sample().close();
    const r = restoreContext(path);
    expect(r.messages.map((m) => m.message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(r.messages[4]!.message).toMatchObject({ role: 'tool', toolCallId: 'c2', isError: true, content: expect.stringMatching(/stopped before this call finished/) });
  });

  it('skips a torn last line with a warning, and a resumed log cuts it before appending', () => {
    sample().close();
    appendFileSync(path, '{"v":1,"id":"e6","at":1,"type":"mess');
    expect(readSessionLog(path).warnings[0]).toMatch(/torn last line/);
    const log = new SessionLog(path, { repairTornTail: true, fsync: 'none' }).continueAfter(5);
    log.append({ type: 'message', message: { role: 'user', content: 'again' } });
    log.close();
    const { entries, warnings } = readSessionLog(path);
    expect(warnings).toEqual([]);
    expect(entries.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
  });

  it('a damaged line in the middle is an error naming the line', () => {
    sample().close();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = '{oops';
    writeFileSync(path, lines.join('\n'));
    expect(() => readSessionLog(path)).toThrow(/line 3: not JSON/);
    writeFileSync(path, '{"v":1,"id":"e1","at":1,"type":"message","message":{"role":"user","content":"x"}}\n');
    expect(() => readSessionLog(path)).toThrow(/no header entry/);
  });

  it('applies archived ranges and exports to one JSON document', () => {
    const log = sample();
    log.append({ type: 'archived', ids: ['e4', 'e5'], marker: { role: 'user', content: '[Context note] 2 earlier messages' }, archivePath: '/a' });
    log.close();
    const r = restoreContext(path);
    expect(r.messages.map((m) => m.message.content)).toEqual(['sys', 'task', '[Context note] 2 earlier messages']);
    const doc = exportSession(path);
    expect(doc).toMatchObject({ format: 'erasmus-session', version: 1, header: { sessionId: 's' } });
    expect(doc.entries).toHaveLength(6);
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });
});
