import { runDoctor } from '../../doctor/index';
import { sandboxStatus } from '../../runners/pty/sandbox';
import type { Core } from '../core';

export function registerAppHandlers(core: Core): void {
  const d = core.dispatcher;
  d.register('app.ping', ({ message }) => ({ pong: true as const, ...(message !== undefined ? { message } : {}), time: Date.now() }));
  d.register('app.info', (_p, ctx) => {
    const { available, detail } = sandboxStatus();
    return { version: core.version, platform: process.platform, home: core.paths.home, face: ctx.face, sandbox: { available, detail } };
  });
  d.register('app.doctor', async () => ({ checks: await runDoctor({ secrets: core.secrets, configYaml: core.paths.configYaml }) }));
  d.register('app.methods', () => ({ methods: d.registered() }));
}
