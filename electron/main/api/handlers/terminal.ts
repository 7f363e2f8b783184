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
  core.dispatcher.register('terminal.openShell', ({ cwd, cols, rows }) =>
    act(() => core.ptys.openShell({ cwd: cwd ?? projectPath ?? homedir(), cols, rows })),
  );
  core.dispatcher.register('terminal.input', ({ id, data }) => act(() => (core.ptys.input(id, data), { ok: true as const })));
  core.dispatcher.register('terminal.resize', ({ id, cols, rows }) => act(() => (core.ptys.resize(id, cols, rows), { ok: true as const })));
  core.dispatcher.register('terminal.ack', ({ id, chars }) => (core.ptys.ack(id, chars), { ok: true as const }));
  core.dispatcher.register('terminal.kill', ({ id }) => act(async () => (await core.ptys.kill(id), { ok: true as const })));
  core.dispatcher.register('terminal.close', ({ id }) => act(async () => (await core.ptys.close(id), { ok: true as const })));
}
