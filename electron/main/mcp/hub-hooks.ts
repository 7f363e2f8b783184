import type { EventBus } from '../api/events';
import type { SecretStore } from '../secrets/index';
import { authProviderFor, type OpenAuthorization } from './auth/provider';
import { createHubClient } from './client';
import type { ConnectionHooks, ServerConnection } from './connection';
import type { ElicitationHandler, SamplingHandler } from './types';

/** What the connections' hooks need from the hub. */
export interface HubHooksContext {
  bus: EventBus;
  version: string;
  secrets?: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  openAuthorization?: OpenAuthorization;
  /** Emits the server's status (the hub decides when, e.g. not after dispose). */
  emitStatus(c: ServerConnection): void;
  /** The server is ready again: ask again for what was watched. */
  ready(c: ServerConnection): void;
  roots(): { uri: string; name: string }[];
  sampling(): SamplingHandler | undefined;
  elicitation(): ElicitationHandler | undefined;
}

/**
 * The glue between each connection and the hub: status, tool and stderr events, the SDK client with
 * the hub's capabilities (client.ts), and OAuth for remote servers (auth/provider.ts).
 */
export function hubHooks(ctx: HubHooksContext): ConnectionHooks {
  return {
    status: (c) => {
      ctx.emitStatus(c);
      if (c.state === 'ready') ctx.ready(c);
    },
    toolsChanged: (c) => ctx.bus.emit('mcp.tools.changed', { server: c.name, tools: c.tools.length }),
    stderr: (c, text) => ctx.bus.emit('mcp.stderr', { server: c.name, text }),
    makeClient: (c) =>
      createHubClient(c, {
        version: ctx.version,
        bus: ctx.bus,
        roots: ctx.roots,
        sampling: ctx.sampling,
        elicitation: ctx.elicitation,
      }),
    authProvider: async (c) => {
      if (c.target.kind !== 'config' || !c.target.config.url) return undefined;
      const { url, oauth, headers } = c.target.config;
      return authProviderFor(c.name, url, oauth, headers, ctx.secrets, async (server, page) => {
        ctx.emitStatus(c);
        await ctx.openAuthorization?.(server, page);
      });
    },
  };
}
