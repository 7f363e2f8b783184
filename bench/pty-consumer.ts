// The browser's side of `erasmus serve` for bench/pty.bench.ts, in a process of its own as a browser
// tab is: a WebSocket to the core, binary messages decoded as the browser's pipe decodes them
// (TextDecoder), read by the contract's RpcClient (frames checked against the event's schema), and
// rendered output acknowledged every ACK_CHUNK_CHARS as the TerminalStore does (terminal.ack
// notifications). It renders nothing. When a terminal exits it tells the bench (IPC) how many
// characters arrived, whether any arrived out of order, and its own CPU time so far.
import WebSocket from 'ws';
import { RpcClient, type Pipe } from '../electron/contract/index';
import { ACK_CHUNK_CHARS } from '../electron/main/runners/pty/flow';

export interface ConsumerReport {
  id: string;
  chars: number;
  /** Chunks whose `at` was not where the output received so far ended. */
  gaps: number;
  /** This process's CPU time (user + system) since it started, in ms. */
  cpuMs: number;
  /** The output's last 200 characters (the bench checks its end arrived). */
  tail: string;
  /** When the exit was read: CLOCK_MONOTONIC in ms (process.hrtime), the same clock in every process. */
  readAt: number;
}

const ws = new WebSocket(process.argv[2]!);
const utf8 = new TextDecoder();
const listeners = new Set<(m: string) => void>();
ws.on('message', (data: Buffer, isBinary: boolean) => {
  const text = isBinary ? utf8.decode(data) : data.toString('utf8');
  for (const l of listeners) l(text);
});
const pipe: Pipe = {
  send: (m) => ws.send(m),
  onMessage: (l) => (listeners.add(l), () => listeners.delete(l)),
  onClose: (l) => (ws.on('close', l), () => ws.off('close', l)),
  close: () => ws.close(),
};
const client = new RpcClient(pipe, 'the bench core');
/** To the bench, while it listens (at its end it lets go of this process before the core stops). */
const tell = (m: unknown) => void (process.connected && process.send!(m));
const seen = new Map<string, { chars: number; gaps: number; unacked: number; tail: string }>();
/** A keystroke-to-echo measurement under way: the terminal whose next output ends the wait. */
let echo: { id: string; got: () => void } | undefined;
client.on('terminal.data', ({ id, at, data }) => {
  if (echo?.id === id) echo.got();
  let s = seen.get(id);
  if (!s) seen.set(id, (s = { chars: 0, gaps: 0, unacked: 0, tail: '' }));
  if (at !== s.chars) s.gaps++;
  s.chars += data.length;
  s.tail = data.length >= 200 ? data.slice(-200) : (s.tail + data).slice(-200);
  s.unacked += data.length;
  if (s.unacked < ACK_CHUNK_CHARS) return;
  client.notify('terminal.ack', { id, chars: s.unacked });
  s.unacked = 0;
});
client.on('terminal.exited', ({ id }) => {
  const readAt = Number(process.hrtime.bigint()) / 1e6;
  const s = seen.get(id) ?? { chars: 0, gaps: 0, unacked: 0, tail: '' };
  seen.delete(id);
  const c = process.cpuUsage();
  const report: ConsumerReport = { id, chars: s.chars, gaps: s.gaps, cpuMs: (c.user + c.system) / 1000, tail: s.tail, readAt };
  tell(report);
});
// The bench asks for `keys` keystrokes typed into terminal `id` (terminal.input, as the view sends
// them), one at a time, each timed until its echo has come back over the WebSocket.
process.on('message', (m: { echo: string; keys: number }) => {
  void (async () => {
    const times: number[] = [];
    for (let i = 0; i < m.keys; i++) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        echo = { id: m.echo, got: resolve };
        void client.request('terminal.input', { id: m.echo, data: 'x' });
      });
      times.push(performance.now() - t0);
    }
    echo = undefined;
    tell({ echoTimes: times });
  })();
});
ws.once('open', () => tell('ready'));
ws.once('error', (err) => {
  console.error(`bench consumer: ${err.message}`);
  process.exit(1);
});
process.on('disconnect', () => process.exit(0));
