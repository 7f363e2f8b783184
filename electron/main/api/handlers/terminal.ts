import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { ErrorCode, RpcError } from '../../../contract/index';
import type { Core } from '../core';

/** The terminal view's methods: shell tabs, keystrokes, resize, stop, flow-control acknowledgements. */
export function registerTerminalHandlers(core: Core): void {
  let projectPath: string | undefined;
  core.disposables.defer(core.bus.onEvent('project.opened', (p) => (projectPath = p.path)));
  const act = async <T>(fn: () => T | Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
  };
  core.dispatcher.register('terminal.list', () => ({ terminals: core.ptys.list() }));
  core.dispatcher.register('terminal.output', ({ id, maxChars }) =>
    act(async () => {
      const term = core.ptys.get(id);
      if (!term) throw new Error(`no terminal with id "${id}"`);
      const max = maxChars ?? DEFAULT_REPLAY_CHARS;
      // A running terminal answers from memory, with the point live output goes on from; a finished one from its complete file.
      if (term.running) return term.backlog(max);
      await term.outputWritten;
      const file = term.info.outputFile;
      return { ...(file ? await tailOf(file, max) : { data: '', truncated: false }), end: term.sentChars };
    }),
  );
  core.dispatcher.register('terminal.openShell', ({ cwd, cols, rows }) =>
    act(() => core.ptys.openShell({ cwd: cwd ?? projectPath ?? homedir(), cols, rows })),
  );
  core.dispatcher.register('terminal.input', ({ id, data }) => act(() => (core.ptys.input(id, data), { ok: true as const })));
  core.dispatcher.register('terminal.resize', ({ id, cols, rows }) => act(() => (core.ptys.resize(id, cols, rows), { ok: true as const })));
  core.dispatcher.register('terminal.ack', ({ id, chars }) => (core.ptys.ack(id, chars), { ok: true as const }));
  core.dispatcher.register('terminal.kill', ({ id }) => act(async () => (await core.ptys.kill(id), { ok: true as const })));
  core.dispatcher.register('terminal.close', ({ id }) => act(async () => (await core.ptys.close(id), { ok: true as const })));
}

/** How much of a terminal's output a late view gets back by default. */
const DEFAULT_REPLAY_CHARS = 500_000;

/** The end of a terminal's output file: at most `max` bytes, starting at a whole character. */
async function tailOf(file: string, max: number): Promise<{ data: string; truncated: boolean }> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return { data: '', truncated: false };
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - max);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    // A cut in the middle of a UTF-8 character: skip its continuation bytes.
    let from = 0;
    while (start > 0 && from < buffer.length && (buffer[from]! & 0xc0) === 0x80) from++;
    return { data: buffer.subarray(from).toString('utf8'), truncated: start > 0 };
  } finally {
    await handle.close();
  }
}
