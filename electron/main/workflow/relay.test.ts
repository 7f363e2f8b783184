// Handing a retry or skip to the process that drives a run (relay.ts), over real files: applied there and answered,
// refused there in its words, taken back when the driver lets go of the run first (nothing applied twice), and said
// when nobody answers.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { askDriver, relayDir, serveRelay, type RelayRequest } from './relay';

let root: string;
let dir: string;
const ends: (() => void)[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'erasmus-relay-'));
  dir = relayDir(join(root, 'run-1.json'));
});
afterEach(async () => {
  for (const end of ends.splice(0)) end();
  await rm(root, { recursive: true, force: true });
});

it("the driver applies the request as its own call and the asker reads its answer; nothing is left behind", async () => {
  const applied: RelayRequest[] = [];
  ends.push(serveRelay(dir, async (q) => (applied.push(q), 'RUNNING')));
  const out = await askDriver(dir, { verb: 'retry', component: 'b', answer: 'part b' }, () => true);
  expect(out).toEqual({ kind: 'reply', reply: { ok: true, status: 'RUNNING', pid: process.pid } });
  expect(applied).toEqual([{ verb: 'retry', component: 'b', answer: 'part b' }]);
  expect(existsSync(dir)).toBe(false);
});

it("the driver's refusal comes back in its words", async () => {
  ends.push(
    serveRelay(dir, async () => {
      throw new Error('component a is not blocked: nothing to skip (the blocked one is b)');
    }),
  );
  const out = await askDriver(dir, { verb: 'skip', component: 'a' }, () => true);
  expect(out).toEqual({ kind: 'reply', reply: { ok: false, message: 'component a is not blocked: nothing to skip (the blocked one is b)', pid: process.pid } });
});

it('a driver that let go of the run (came to rest, or died) before taking it: the request is taken back, never applied later', async () => {
  let driving = true;
  const asked = askDriver(dir, { verb: 'retry', component: 'b' }, () => driving, 5_000);
  await new Promise((r) => setTimeout(r, 150));
  expect((await readdir(dir)).some((n) => n.endsWith('.request.json'))).toBe(true);
  driving = false;
  expect(await asked).toEqual({ kind: 'gone' });
  // A process that drives the run afterwards finds nothing to apply.
  const applied: RelayRequest[] = [];
  ends.push(serveRelay(dir, async (q) => (applied.push(q), 'RUNNING')));
  await new Promise((r) => setTimeout(r, 500));
  expect(applied).toEqual([]);
});

it('a driver that does not answer in time: said as such, and the request taken back', async () => {
  const started = Date.now();
  expect(await askDriver(dir, { verb: 'retry' }, () => true, 400)).toEqual({ kind: 'silent', taken: false });
  expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  expect(existsSync(dir)).toBe(false);
});
