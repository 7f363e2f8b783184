import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesMatching, startEverythingHttp, tempHome, writeMcpConfig, type HttpServerChild } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';

describe('server-everything over streamable HTTP and SSE', () => {
  let http: HttpServerChild;
  let sse: HttpServerChild;
  const home = tempHome();
  const bus = new EventBus();
  const hub = new McpHub({ paths: new Paths(home), bus });

  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverythingHttp('streamableHttp'), startEverythingHttp('sse')]);
    writeMcpConfig(home, {
      streamable: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      legacy: { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` },
      // An "http" entry pointing at an old SSE-only server: streamable HTTP is refused, the hub falls back to SSE.
      fallback: { url: `http://127.0.0.1:${sse.port}/sse` },
    });
    hub.setSamplingHandler(async () => ({ role: 'assistant', model: 'scripted', content: { type: 'text', text: 'remote sampled' } }));
    await hub.start({ watch: false });
  });
  afterAll(async () => {
    await hub.dispose();
    await Promise.all([http?.stop(), sse?.stop()]);
    expect(processesMatching(String(http.port))).toEqual([]);
    rmSync(home, { recursive: true, force: true });
  });

  it('connects over each transport (with SSE fallback) and calls tools', async () => {
    const byName = Object.fromEntries(hub.servers().map((s) => [s.name, s]));
    expect(byName.streamable).toMatchObject({ state: 'ready', transport: 'http' });
    expect(byName.legacy).toMatchObject({ state: 'ready', transport: 'sse' });
    expect(byName.fallback).toMatchObject({ state: 'ready', transport: 'sse' });
    for (const name of ['streamable', 'legacy', 'fallback']) {
      const r = await hub.callTool(name, 'echo', { message: `over ${name}` });
      expect(JSON.stringify(r.content)).toContain(`over ${name}`);
    }
  });

  it('routes sampling and progress over streamable HTTP', async () => {
    const r = await hub.callTool('streamable', 'trigger-sampling-request', { prompt: 'hello', maxTokens: 5 });
    expect(JSON.stringify(r.content)).toContain('remote sampled');
    const progress: number[] = [];
    await hub.callTool('streamable', 'trigger-long-running-operation', { duration: 0.2, steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
  });

  it('reads resources over SSE', async () => {
    const resources = await hub.listResources('legacy');
    const read = await hub.readResource(resources[0]!.uri, 'legacy');
    expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
  });
});
