import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Paths } from '../../main/paths/index';
import { MemoryEventStore } from './event-store';
import { serveHttp } from './http';
import { createErasmusServer } from './server';

// `erasmus mcp-server erasmus --http` over real HTTP: a client that loses its SSE stream and
// reconnects with Last-Event-ID gets the events it missed.
let dir: string;
let paths: Paths;
let h: Awaited<ReturnType<typeof serveHttp>>;
const TOKEN = 'resume-token-123456';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-resume-'));
  paths = new Paths(join(dir, 'home'));
  mkdirSync(join(paths.home, 'context', 'proj-1', 'ctx', 'components'), { recursive: true });
  const make = () =>
    createErasmusServer({
      paths,
      version: 'test',
      link: () => Promise.reject(new Error('no core')),
      chat: () => {
        throw new Error('no chat');
      },
      provider: () => Promise.reject(new Error('no provider')),
      autoApprove: false,
      log: () => undefined,
      listIntervalMs: 50,
    });
  h = await serveHttp(make, 0, () => undefined, TOKEN);
});

afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const headers = (sid?: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${TOKEN}`,
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
  ...(sid ? { 'mcp-session-id': sid } : {}),
  ...extra,
});

interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/** Reads SSE events off a response body until `want` says stop (or the time runs out). */
async function readEvents(res: Response, want: (events: SseEvent[]) => boolean, ms = 5000): Promise<SseEvent[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buf = '';
  const deadline = Date.now() + ms;
  try {
    while (!want(events) && Date.now() < deadline) {
      const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now())))]);
      if (!next || next.done) break;
      buf += decoder.decode(next.value, { stream: true });
      let end: number;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const e: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('retry: ')) e.retry = Number(line.slice(7));
          else if (line.startsWith('data: ')) e.data += line.slice(6);
        }
        if (e.id !== undefined || e.data) events.push(e);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return events;
}

const listChanged = (events: SseEvent[]) => events.filter((e) => e.data.includes('notifications/resources/list_changed'));
const addDoc = (name: string) => writeFileSync(join(paths.home, 'context', 'proj-1', 'ctx', 'components', `${name}.md`), `# ${name}\n`);

describe('resumable streams', () => {
  it('replays what a disconnected standalone stream missed, after Last-Event-ID', async () => {
    const init = await fetch(h.url, { method: 'POST', headers: headers(), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
    expect(init.status).toBe(200);
    const sid = init.headers.get('mcp-session-id')!;
    const initEvents = await readEvents(init, (ev) => ev.some((e) => e.data.includes('"result"')));
    // The POST stream is primed with an event id first (the client's cursor for resuming it).
    expect(initEvents[0]?.id).toBeTruthy();
    expect(initEvents[0]?.data).toBe('');
    expect(initEvents[0]?.retry).toBe(1000);
    expect((await fetch(h.url, { method: 'POST', headers: headers(sid), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status).toBe(202);
    await new Promise((r) => setTimeout(r, 200)); // the document list's first look

    const first = await fetch(h.url, { method: 'GET', headers: headers(sid) });
    expect(first.status).toBe(200);
    addDoc('one');
    const seen = await readEvents(first, (ev) => listChanged(ev).length > 0);
    const cursor = listChanged(seen)[0]?.id;
    expect(cursor).toBeTruthy();

    // Disconnected (readEvents cancelled the body): two more changes happen meanwhile.
    await new Promise((r) => setTimeout(r, 100));
    addDoc('two');
    await new Promise((r) => setTimeout(r, 300));
    addDoc('three');
    await new Promise((r) => setTimeout(r, 300));

    const resumed = await fetch(h.url, { method: 'GET', headers: headers(sid, { 'last-event-id': cursor! }) });
    expect(resumed.status).toBe(200);
    const missed = await readEvents(resumed, (ev) => listChanged(ev).length >= 2);
    expect(listChanged(missed)).toHaveLength(2);
    expect(missed.map((e) => e.id)).not.toContain(cursor);

    const unknown = await fetch(h.url, { method: 'GET', headers: headers(sid, { 'last-event-id': 'no-such-event' }) });
    expect(unknown.status).toBe(400);
  }, 20_000);
});

describe('MemoryEventStore', () => {
  it('replays only the same stream, after the cursor, and forgets past its bounds', async () => {
    let now = 0;
    const store = new MemoryEventStore(3, 1000, () => now);
    const a1 = await store.storeEvent('a', { jsonrpc: '2.0', method: 'x/1' });
    await store.storeEvent('b', { jsonrpc: '2.0', method: 'y/1' });
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'x/2' });
    const sent: string[] = [];
    expect(await store.replayEventsAfter(a1, { send: async (_id, m) => void sent.push((m as { method: string }).method) })).toBe('a');
    expect(sent).toEqual(['x/2']);
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'x/3' });
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(a1)).toBeUndefined();
    now = 5000;
    expect(store.size).toBe(3);
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'x/4' });
    expect(store.size).toBe(1);
  });
});
