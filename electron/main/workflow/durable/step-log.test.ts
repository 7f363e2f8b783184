import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionLog } from '../../sessions/log';
import { readSessionLog } from '../../sessions/read';
import { keepLogPiece, logPiece, StepLog } from './step-log';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'step-log-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("a worker step's session log, shipped to the run's home in pieces", () => {
  it('reads whole lines only, from where the last piece ended; nothing when nothing new (or no log yet)', () => {
    const file = join(temp(), 's.jsonl');
    expect(logPiece(file, 0)).toBeUndefined();
    writeFileSync(file, 'one\ntw');
    expect(logPiece(file, 0)).toEqual({ text: 'one\n', to: 4 });
    expect(logPiece(file, 4)).toBeUndefined(); // a torn last line waits for the next piece
    appendFileSync(file, 'o\nthré\n');
    expect(logPiece(file, 4)).toEqual({ text: 'two\nthré\n', to: 4 + Buffer.byteLength('two\nthré\n') });
  });

  it("rebuilds the worker's log byte for byte in the run's home, masked as the worker wrote it; a piece seen twice changes nothing; one past the end is not written", async () => {
    const worker = join(temp(), 'home-w', 'sessions', 's1.jsonl');
    const run = join(temp(), 'home-run', 'sessions', 's1.jsonl');
    const log = new SessionLog(worker, { fsync: 'none', redact: (t) => t.replaceAll('sk-secret', '***') });
    const pieces: StepLog[] = [];
    let sent = 0;
    const ship = () => {
      const p = logPiece(worker, sent);
      if (p) pieces.push(StepLog.parse({ sessionId: 's1', from: sent, text: p.text }));
      sent = p?.to ?? sent;
    };
    log.append({ type: 'header', sessionId: 's1', provider: 'p', model: 'm', toolMode: 'native' });
    ship();
    log.append({ type: 'event', event: { type: 'tool_running', sessionId: 's1', at: 1, callId: 'c1', name: 'files__write_file', args: { path: 'a.txt', content: 'key sk-secret' } } });
    log.append({ type: 'event', event: { type: 'tool_complete', sessionId: 's1', at: 2, callId: 'c1', name: 'files__write_file', args: { path: 'a.txt' }, result: 'created a.txt', isError: false, durationMs: 1 } });
    ship();
    log.close();
    for (const p of pieces) expect(await keepLogPiece(run, p)).toBe(true);
    expect(await keepLogPiece(run, pieces[0]!)).toBe(true); // again (a replay): the same bytes
    expect(await keepLogPiece(run, { sessionId: 's1', from: 10_000, text: 'late\n' })).toBe(false);
    expect(readFileSync(run, 'utf8')).toBe(readFileSync(worker, 'utf8'));
    expect(readFileSync(run, 'utf8')).not.toContain('sk-secret');
    const { entries, warnings } = readSessionLog(run);
    expect(warnings).toEqual([]);
    expect(entries.map((e) => (e.type === 'event' ? e.event.type : e.type))).toEqual(['header', 'tool_running', 'tool_complete']);
  });

  it('refuses a piece naming a session id that is not a file name', () => {
    expect(StepLog.safeParse({ sessionId: '../config', from: 0, text: '' }).success).toBe(false);
  });
});
