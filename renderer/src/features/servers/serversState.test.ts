import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../../../../electron/contract/index';
import { logOf, MAX_LOG_LINES, withStatus, withStderr, type ServersState } from './serversState';

const status = (name: string, state: McpServerStatus['state'], stderrTail: string[] = []): McpServerStatus => ({ name, transport: 'stdio', state, stderrTail, restarts: 0, tools: 0 });

describe('servers state', () => {
  it('replaces a server by name and appends new ones', () => {
    let s: ServersState = { servers: [status('a', 'starting')], stderr: {} };
    s = withStatus(s, status('a', 'ready'));
    s = withStatus(s, status('b', 'errored'));
    expect(s.servers.map((x) => `${x.name}:${x.state}`)).toEqual(['a:ready', 'b:errored']);
  });
  it('keeps the last lines of stderr per server, falling back to the status tail', () => {
    let s: ServersState = { servers: [], stderr: {} };
    expect(logOf(s, status('a', 'errored', ['boom']))).toEqual(['boom']);
    s = withStderr(s, 'a', 'one\ntwo\n');
    expect(logOf(s, status('a', 'ready'))).toEqual(['one', 'two']);
    for (let i = 0; i < MAX_LOG_LINES; i++) s = withStderr(s, 'a', `l${i}`);
    expect(logOf(s, status('a', 'ready'))).toHaveLength(MAX_LOG_LINES);
    expect(logOf(s, status('a', 'ready')).at(-1)).toBe(`l${MAX_LOG_LINES - 1}`);
  });
});
