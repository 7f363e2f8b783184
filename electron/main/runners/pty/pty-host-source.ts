/**
 * The pty host's thread (pty-host.ts), as plain CommonJS run with `new Worker(source, { eval: true })`:
 * no bundling, so the same text runs from the TypeScript sources (vitest, tsx), the electron-vite build
 * and the CLI bundle. It only spawns PTYs with node-pty (its path in workerData), reads and gathers their
 * bytes, and hands each batch to the main thread as a transferred ArrayBuffer; everything else a
 * terminal does stays on the main thread.
 *
 * Messages in (main → host): spawn, write, resize, pause, resume, took (bytes the main thread has taken),
 * cancel (a spawn the main thread stopped waiting for), shutdown (see there).
 * Messages out: { t: 'data', id, b: ArrayBuffer } (the bytes after `headroom` free bytes), { t: 'exit', id, exitCode, signal }.
 * A spawn is answered through shared memory (the main thread waits for it, so a terminal has its pid at
 * once): state[1] the pid, or -1 (spawn failed) / -2 (node-pty did not load) with the error's UTF-8 text in
 * `text` and its length in state[2]; then state[0] = 1 and a notify.
 *
 * Batching, as DataBatcher's: after a quiet spell (nothing sent for `batchMs`) or after input was written,
 * the reads of this turn go at setImmediate (an echo is not held back); while output keeps coming it is
 * gathered for `batchMs`; a batch of `maxBytes` goes at once. A PTY is paused while the main thread asked
 * it (flow control) or while more than `highBytes` sent are not yet taken (a busy main thread does not let
 * a flood pile up in memory), and resumed under `lowBytes`. node-pty destroys a PTY's socket 200 ms after
 * its process exits, losing what a paused socket still holds: while paused, the process is watched and
 * the socket resumed for good once it has ended.
 */
export const PTY_HOST_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { ptyPath, headroom, maxBytes, highBytes, lowBytes } = workerData;
const state = new Int32Array(workerData.shared, 0, 4);
const text = new Uint8Array(workerData.shared, 16);
let pty;
let loadError;
const ptys = new Map();

function answer(pid, err) {
  let n = 0;
  if (err) n = Buffer.from(text.buffer, text.byteOffset, text.length).write(String((err && err.message) || err).slice(0, text.length / 4));
  Atomics.store(state, 1, pid);
  Atomics.store(state, 2, n);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}

function cancel(e) {
  if (e.timer !== undefined) clearTimeout(e.timer);
  if (e.immediate !== undefined) clearImmediate(e.immediate);
  e.timer = undefined;
  e.immediate = undefined;
}

function flush(e) {
  cancel(e);
  if (!e.bytes) return;
  const buf = Buffer.allocUnsafeSlow(headroom + e.bytes);
  let at = headroom;
  for (const c of e.chunks) at += c.copy(buf, at);
  const n = e.bytes;
  e.chunks = [];
  e.bytes = 0;
  e.echoDue = false;
  e.lastFlush = performance.now();
  parentPort.postMessage({ t: 'data', id: e.id, b: buf.buffer }, [buf.buffer]);
  e.posted += n;
  if (!e.backlog && e.posted - e.taken > highBytes) {
    e.backlog = true;
    update(e);
  }
}

function soon(e) {
  if (e.timer !== undefined) clearTimeout(e.timer);
  e.timer = undefined;
  if (e.immediate === undefined) e.immediate = setImmediate(() => flush(e));
}

function onData(e, b) {
  e.chunks.push(b);
  e.bytes += b.length;
  if (e.bytes >= maxBytes) return flush(e);
  if (e.immediate !== undefined) return;
  if (e.echoDue || performance.now() - e.lastFlush >= e.batchMs) soon(e);
  else if (e.timer === undefined) e.timer = setTimeout(() => flush(e), e.batchMs);
}

function update(e) {
  const want = !e.ended && (e.flowPaused || e.backlog);
  if (want !== e.paused) {
    e.paused = want;
    if (want) e.p.pause();
    else e.p.resume();
  }
  if (want && e.watch === undefined) {
    e.watch = setInterval(() => {
      try {
        process.kill(e.p.pid, 0);
      } catch {
        e.ended = true;
        update(e);
      }
    }, 40);
  } else if (!want && e.watch !== undefined) {
    clearInterval(e.watch);
    e.watch = undefined;
  }
}

function spawn(m) {
  if (!pty && !loadError) {
    try {
      pty = require(ptyPath);
    } catch (err) {
      loadError = err;
    }
  }
  if (loadError) return answer(-2, loadError);
  let p;
  try {
    p = pty.spawn(m.file, m.args, { encoding: null, name: 'xterm-256color', cols: m.cols, rows: m.rows, cwd: m.cwd, env: m.env });
  } catch (err) {
    return answer(-1, err);
  }
  const e = { id: m.id, p, batchMs: m.batchMs, chunks: [], bytes: 0, timer: undefined, immediate: undefined, lastFlush: -Infinity, echoDue: false,
    posted: 0, taken: 0, flowPaused: false, backlog: false, paused: false, ended: false, watch: undefined };
  ptys.set(m.id, e);
  p.onData((b) => onData(e, b));
  p.onExit(({ exitCode, signal }) => {
    flush(e);
    e.ended = true;
    update(e);
    // Said once node-pty's exit callback has returned: the main thread may end this thread as soon as it
    // knows, and node-pty aborts the process when its callback is running in a thread being torn down.
    setImmediate(() => {
      ptys.delete(e.id);
      parentPort.postMessage({ t: 'exit', id: e.id, exitCode, signal: signal || 0 });
      if (shuttingDown && !ptys.size) shuttingDown();
    });
  });
  answer(p.pid);
}

/**
 * Before this thread is ended (the process exits, or stop): each PTY's session is hung up, as a closed
 * terminal would be, and its leader killed; state[3] = 1 once node-pty has seen every one of them exit
 * (or after a second). Node would otherwise wait, ending this thread, for a leader that ignores SIGHUP
 * (node-pty joins its waiting thread), and abort if an exit callback ran while it tears the thread down.
 */
let shuttingDown;
function shutdown() {
  const done = () => {
    shuttingDown = undefined;
    Atomics.store(state, 3, 1);
    Atomics.notify(state, 3);
  };
  if (!ptys.size) return done();
  shuttingDown = done;
  setTimeout(done, 1000);
  for (const e of ptys.values()) {
    e.ended = true;
    update(e);
    try {
      process.kill(-e.p.pid, 'SIGHUP');
    } catch {}
    try {
      process.kill(e.p.pid, 'SIGKILL');
    } catch {}
  }
}

parentPort.on('message', (m) => {
  if (m.t === 'spawn') return spawn(m);
  if (m.t === 'shutdown') return shutdown();
  const e = ptys.get(m.id);
  if (!e) return;
  try {
    handle(e, m);
  } catch (err) {
    console.error('pty host: ' + m.t + ' failed: ' + ((err && err.message) || err));
  }
});

function handle(e, m) {
  switch (m.t) {
    case 'write':
      e.echoDue = true;
      if (e.bytes) soon(e);
      e.p.write(m.data);
      break;
    case 'resize':
      try {
        e.p.resize(m.cols, m.rows);
      } catch {}
      break;
    case 'pause':
    case 'resume':
      e.flowPaused = m.t === 'pause';
      update(e);
      break;
    case 'took':
      e.taken += m.n;
      if (e.backlog && e.posted - e.taken <= lowBytes) {
        e.backlog = false;
        update(e);
      }
      break;
    case 'cancel':
      // Spawned after the main thread stopped waiting for it: nobody will read it.
      try {
        process.kill(-e.p.pid, 'SIGHUP');
      } catch {}
      break;
  }
}
`;
