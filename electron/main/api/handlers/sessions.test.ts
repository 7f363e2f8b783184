import { appendFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionLog } from '../../sessions/index';
import { connectedCore } from '../testing';

const { core, client, dispose } = connectedCore('replay');
afterAll(dispose);

describe('sessions.replay', () => {
  it('replays the user messages and agent events of a logged session, in order, skipping a torn last line', async () => {
    const log = new SessionLog(core.paths.session('s-1'), { fsync: 'all' });
    log.append({ type: 'header', sessionId: 's-1', provider: 'p', model: 'm', toolMode: 'native' });
    log.append({ type: 'message', message: { role: 'system', content: 'you are…' } });
    log.append({ type: 'message', message: { role: 'user', content: 'add numbers' } });
    log.append({ type: 'event', event: { type: 'sentence', sessionId: 's-1', at: 5, text: 'Sure.' } });
    log.append({ type: 'event', event: { type: 'session_ended', sessionId: 's-1', at: 6, reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 } });
    log.close();
    appendFileSync(core.paths.session('s-1'), '{"v":1,"id":"torn');
    const r = await client.request('sessions.replay', { sessionId: 's-1' });
    expect(r.items.map((i) => (i.type === 'user' ? `user:${i.text}` : `event:${i.event.type}`))).toEqual(['user:add numbers', 'event:sentence', 'event:session_ended']);
    expect(r.warnings[0]).toMatch(/torn last line/);
  });
  it('names the session that has no log, and refuses a path as an id', async () => {
    await expect(client.request('sessions.replay', { sessionId: 'nope' })).rejects.toThrow(/cannot read session log .*nope\.jsonl/);
    await expect(client.request('sessions.replay', { sessionId: '../x' })).rejects.toThrow(/session id/);
  });
});
