// A retry or skip typed in a second terminal (or the app) while another Erasmus process drives the run: that process
// holds the run's lock, so only it can apply the call. The second process hands it over: a request file written
// atomically in a folder beside the run record (`<run>.json.relay/`), which the driving process looks at while it
// drives (every RELAY_POLL_MS), applies as its own call (the engine's retry/skip), and answers with a reply file
// beside it. The asker waits a bounded time; a driver that let go of the run meanwhile (its run came to rest, or it
// died: the lock is stale) leaves the request untaken, and the asker takes it back and goes the normal way.
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../common/fs';

/** What the driving process is asked to do: the call a `workflow retry|skip` would make. */
export interface RelayRequest {
  verb: 'retry' | 'skip';
  component?: string;
  answer?: string;
}

/** The driving process's answer: its call went through (the run's status after it), or its refusal in its words. */
export type RelayReply = { ok: true; status: string; pid: number } | { ok: false; message: string; pid: number };

/**
 * What came of handing a call to the driver: its reply; `gone` when it let go of the run without taking the request
 * (nothing was applied: the caller may apply it itself); `silent` when it did not answer in time (nothing applied either,
 * unless `taken`: it took the request and gave no answer, so whether it was applied is not known).
 */
export type RelayOutcome = { kind: 'reply'; reply: RelayReply } | { kind: 'gone' } | { kind: 'silent'; taken: boolean };

export const RELAY_POLL_MS = 200;
export const RELAY_WAIT_MS = 10_000;

/** The folder of a run's requests, beside its record. */
export function relayDir(runFile: string): string {
  return `${runFile}.relay`;
}

const REQUEST = '.request.json';

/**
 * The driving side: while a run is driven here, takes each request found (renamed to `.taken` first, so the asker knows
 * it is in hand and does not take it back), applies it, and writes the reply. Returns what ends it.
 */
export function serveRelay(dir: string, apply: (request: RelayRequest) => Promise<string>): () => void {
  let ended = false;
  let busy = false;
  const tick = async () => {
    if (busy || ended) return;
    busy = true;
    try {
      const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(REQUEST)).sort();
      for (const name of names) {
        if (ended) return;
        const id = name.slice(0, -REQUEST.length);
        const taken = join(dir, `${id}.taken`);
        try {
          await rename(join(dir, name), taken);
        } catch {
          continue; // taken back by its asker (it stopped waiting)
        }
        // The run stopped being driven here meanwhile: put back untaken, for its asker to take back and do itself.
        if (ended) {
          await rename(taken, join(dir, name)).catch(() => undefined);
          return;
        }
        let reply: RelayReply;
        try {
          const request = parseRequest(await readFile(taken, 'utf8'));
          reply = { ok: true, status: await apply(request), pid: process.pid };
        } catch (err) {
          reply = { ok: false, message: (err as Error).message, pid: process.pid };
        }
        // The taken request goes before the reply comes, so the asker, reading the reply, leaves an empty folder to remove.
        await unlink(taken).catch(() => undefined);
        await writeJsonAtomic(join(dir, `${id}.reply.json`), reply).catch(() => undefined);
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), RELAY_POLL_MS);
  timer.unref();
  return () => {
    ended = true;
    clearInterval(timer);
  };
}

function parseRequest(text: string): RelayRequest {
  const r = JSON.parse(text) as Partial<RelayRequest>;
  if (r.verb !== 'retry' && r.verb !== 'skip') throw new Error(`not a retry or skip request: ${JSON.stringify(r.verb)}`);
  return { verb: r.verb, ...(typeof r.component === 'string' ? { component: r.component } : {}), ...(typeof r.answer === 'string' ? { answer: r.answer } : {}) };
}

/**
 * The asking side: writes the request and waits for the reply while `driving()` says the driver still holds the run
 * (at most `waitMs`, and as long again for a request it took).
 */
export async function askDriver(dir: string, request: RelayRequest, driving: () => boolean, waitMs = RELAY_WAIT_MS): Promise<RelayOutcome> {
  const id = `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const file = join(dir, `${id}${REQUEST}`);
  const replyFile = join(dir, `${id}.reply.json`);
  await writeJsonAtomic(file, request);
  /** Takes the request back if the driver has not taken it: true when it is back (nothing was applied). */
  const takeBack = () => unlink(file).then(() => true, () => false);
  let deadline = Date.now() + waitMs;
  let taken = false;
  try {
    for (;;) {
      const text = await readFile(replyFile, 'utf8').catch(() => undefined);
      if (text !== undefined) {
        await rm(replyFile, { force: true });
        return { kind: 'reply', reply: JSON.parse(text) as RelayReply };
      }
      if (!driving() && (await takeBack())) return { kind: 'gone' };
      if (Date.now() > deadline) {
        if (taken || (await takeBack())) return { kind: 'silent', taken };
        // Taken just now: its reply is on the way.
        taken = true;
        deadline = Date.now() + waitMs;
      }
      await new Promise((r) => setTimeout(r, RELAY_POLL_MS / 2));
    }
  } finally {
    await rmdir(dir).catch(() => undefined); // the folder goes once nothing is in it
  }
}

/** A driver's refusal, as the asker says it: which process, and its words. */
export function relayRefusal(pid: number, runId: string, verb: string, message: string): string {
  return `process ${pid}, which drives run ${runId}, refused the ${verb}: ${message}`;
}

/** A driver that did not answer in time: what may have happened, and how to go on (`pause`: how to pause the run; `again`: how to ask again). */
export function relaySilence(pid: number, runId: string, verb: string, taken: boolean, pause: string, again = `do the ${verb} again`): string {
  return `run ${runId} is driven by another Erasmus process (pid ${pid}), which did not answer this ${verb} within ${RELAY_WAIT_MS / 1000} s (an Erasmus from before such calls were handed over, or a process that is stuck)${taken ? `: it took the ${verb}, so it may still apply it; see the run's status` : `; nothing was done. Pause it (${pause}: it stops after the steps under way), then ${again}`}`;
}
