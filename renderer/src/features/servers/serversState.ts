import type { McpServerStatus } from '../../../../electron/contract/index';

/** The hub's servers as this window knows them, with the stderr lines seen since it connected. */
export interface ServersState {
  servers: McpServerStatus[];
  stderr: Readonly<Record<string, string[]>>;
}

export const MAX_LOG_LINES = 500;

export function withStatus(s: ServersState, status: McpServerStatus): ServersState {
  const i = s.servers.findIndex((x) => x.name === status.name);
  const servers = i < 0 ? [...s.servers, status] : s.servers.map((x, k) => (k === i ? status : x));
  return { ...s, servers };
}

export function withStderr(s: ServersState, server: string, text: string): ServersState {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  if (lines.length === 0) return s;
  const prev = s.stderr[server] ?? [];
  return { ...s, stderr: { ...s.stderr, [server]: [...prev, ...lines].slice(-MAX_LOG_LINES) } };
}

/** stderr to show: what arrived live, else the tail the status carries. */
export function logOf(s: ServersState, server: McpServerStatus): string[] {
  const live = s.stderr[server.name];
  return live && live.length ? live : server.stderrTail;
}
