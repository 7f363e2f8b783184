import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { shutdownOnSignals } from './interrupt';

function harness(stop: () => Promise<unknown>, extra: { boundMs?: number; late?: string } = {}) {
  const signals = new EventEmitter();
  const said: string[] = [];
  const exits: number[] = [];
  let exited!: () => void;
  const exit = new Promise<void>((r) => (exited = r));
  const handle = shutdownOnSignals({
    stopping: 'Stopping (Ctrl-C again quits at once)',
    stop,
    quitting: 'Quit without waiting',
    say: (l) => said.push(l),
    exit: (c) => {
      exits.push(c);
      exited();
    },
    signals,
    ...extra,
  });
  return { signals, said, exits, exit, handle };
}

describe('shutdownOnSignals (serve, worker)', () => {
  it('stops cleanly on the first Ctrl-C and exits 0 once the stop ends', async () => {
    let done!: () => void;
    const h = harness(() => new Promise<void>((r) => (done = r)));
    h.signals.emit('SIGINT');
    expect(h.said).toEqual(['Stopping (Ctrl-C again quits at once)']);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.exits).toEqual([]);
    done();
    await h.exit;
    expect(h.exits).toEqual([0]);
  });

  it('quits at once with 130 on a second Ctrl-C during the stop, saying what is left', async () => {
    const h = harness(() => new Promise<void>(() => {}));
    h.signals.emit('SIGINT');
    h.signals.emit('SIGINT');
    expect(h.said).toEqual(['Stopping (Ctrl-C again quits at once)', 'Quit without waiting']);
    expect(h.exits).toEqual([130]);
  });

  it('takes a second SIGTERM as nothing new, and a stop that fails still ends the process', async () => {
    const h = harness(() => Promise.reject(new Error('the database is gone')));
    h.signals.emit('SIGTERM');
    h.signals.emit('SIGTERM');
    await h.exit;
    expect(h.said).toEqual(['Stopping (Ctrl-C again quits at once)', 'The stop failed: the database is gone']);
    expect(h.exits).toEqual([0]);
  });

  it('leaves after its bound, saying so, when the stop never ends', async () => {
    const h = harness(() => new Promise<void>(() => {}), { boundMs: 20, late: 'did not stop within the bound' });
    h.signals.emit('SIGINT');
    await h.exit;
    expect(h.said.at(-1)).toBe('did not stop within the bound');
    expect(h.exits).toEqual([0]);
    h.handle.dispose();
    h.signals.emit('SIGINT');
    expect(h.exits).toEqual([0]);
  });
});
