import type { Core } from '../core';

export function registerAppHandlers(core: Core): void {
  const d = core.dispatcher;
  d.register('app.ping', ({ message }) => ({ pong: true as const, ...(message !== undefined ? { message } : {}), time: Date.now() }));
  d.register('app.info', (_p, ctx) => ({ version: core.version, platform: process.platform, home: core.paths.home, face: ctx.face }));
  d.register('app.methods', () => ({ methods: d.registered() }));
}
