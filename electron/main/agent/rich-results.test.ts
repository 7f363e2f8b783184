import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverEntry, writeMcpConfig } from '../../../tests/fixtures/mcp/servers';
import { startWireServer, type WireFormat, type WireServer, type WireTurn } from '../../../tests/fixtures/provider-wire/server';
import type { ChatMessage } from '../../contract/index';
import { EventBus } from '../api/events';
import { McpHub } from '../mcp/hub';
import { Paths } from '../paths/index';
import { hubTools, outputSummary } from './hub-tools';
import { resolveProvider, type ProviderConfig } from './providers/config';
import type { ProviderHandle } from './providers/types';
import { samplingHandler } from './sampling';
import { runAgentSession } from './session';
import { xmlSupport } from './xml-adapter';

/**
 * Rich tool results with the real server-everything behind the hub and each provider's wire format in
 * front: images reach a vision model as image parts, resource links are read on demand, structured
 * content and output schemas reach the model, and a model without vision is told what it misses.
 */
const home = mkdtempSync(join(tmpdir(), 'erasmus-rich-'));
const hub = new McpHub({ paths: new Paths(join(home, 'hub')), bus: new EventBus() });
let server: WireServer | undefined;
let tinyImage = '';

beforeAll(async () => {
  writeMcpConfig(join(home, 'hub'), { everything: { command: process.execPath, args: [serverEntry.everything, 'stdio'] } });
  await hub.start({ watch: false });
  await hub.whenReady('everything');
  const r = await hub.callTool('everything', 'get-tiny-image', {});
  tinyImage = (r.content.find((c) => c.type === 'image') as { data: string }).data;
}, 30_000);
afterAll(async () => {
  await hub.dispose();
  rmSync(home, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PREFIX: Record<WireFormat, string> = { anthropic: '/v1', gemini: '/v1beta', 'openai-chat': '/v1', 'openai-responses': '/v1', ollama: '/api' };

async function session(format: WireFormat, entry: Omit<ProviderConfig, 'id' | 'baseUrl'>, turns: WireTurn[], toolMode: 'native' | 'xml' = 'native', toolsets?: string[]) {
  server = await startWireServer(format, turns);
  const config = { providers: [{ id: 'p', ...entry, baseUrl: `${server.url}${PREFIX[format]}`, apiKey: '${env:KEY}' }] };
  const provider = await resolveProvider(config, {}, { env: { KEY: 'k' } });
  const paths = new Paths(mkdtempSync(join(home, 's-')));
  const outcome = await runAgentSession({ paths, sources: { env: {} }, tools: hubTools(hub), xml: xmlSupport() }, { task: 'look at the picture', provider, toolMode, openToolsets: ['everything'], autoApprove: true, ...(toolsets ? { toolsets } : {}) });
  expect(outcome.error ?? '').toBe('');
  return { outcome, provider, bodies: server.requests.filter((r) => !r.path.endsWith('/show')).map((r) => r.body) };
}

type Json = Record<string, unknown>;
const msgs = (body: Json) => body.messages as Json[];
const blocks = (m: Json | undefined) => (Array.isArray(m?.content) ? (m.content as Json[]) : []);

describe('images in tool results', () => {
  it('reach a vision model (Anthropic) as an image block inside the tool result', async () => {
    const { bodies, provider } = await session('anthropic', { kind: 'anthropic', model: 'claude-sonnet-4-5' }, [{ toolCalls: [{ name: 'everything__get-tiny-image', args: {} }] }, { text: 'A tiny MCP logo.' }]);
    expect(provider.supportsImages).toBe(true);
    const result = msgs(bodies[1]!).flatMap(blocks).find((b) => b.type === 'tool_result')!;
    const inner = result.content as Json[];
    expect(inner.find((b) => b.type === 'image')).toMatchObject({ source: { type: 'base64', media_type: 'image/png', data: tinyImage } });
    // The text names the image, so the transcript and a later non-vision reader know it was there.
    expect(JSON.stringify(inner.filter((b) => b.type === 'text'))).toMatch(/\[image 1: image\/png, \d+ kB\]/);
  });

  it('reach an OpenAI-compatible vision model in xml mode as image_url parts of the results message', async () => {
    const xmlCall = '<everything__get-tiny-image>\n</everything__get-tiny-image>';
    const { bodies } = await session('openai-chat', { kind: 'openai-compatible', model: 'local-vl', images: true }, [{ text: xmlCall }, { text: 'A logo.' }], 'xml');
    const results = msgs(bodies[1]!).at(-1)!;
    expect(results.role).toBe('user');
    const parts = results.content as Json[];
    expect(parts[0]).toMatchObject({ type: 'text' });
    expect(String(parts[0]!.text)).toContain('[image 1: image/png');
    expect(parts.find((p) => p.type === 'image_url')).toMatchObject({ image_url: { url: `data:image/png;base64,${tinyImage}` } });
  });

  it('go after the tool messages for an OpenAI-compatible vision model in native mode (its tool messages hold text only)', async () => {
    const { bodies } = await session('openai-chat', { kind: 'openai-compatible', model: 'local-vl', images: true }, [{ toolCalls: [{ name: 'everything__get-tiny-image', args: {} }] }, { text: 'A logo.' }]);
    const m = msgs(bodies[1]!);
    const tool = m.find((x) => x.role === 'tool')!;
    expect(typeof tool.content).toBe('string');
    expect(String(tool.content)).not.toContain(tinyImage);
    const after = m[m.indexOf(tool) + 1]!;
    expect(after.role).toBe('user');
    expect((after.content as Json[]).find((p) => p.type === 'image_url')).toMatchObject({ image_url: { url: `data:image/png;base64,${tinyImage}` } });
  });

  it.each([
    ['openai-responses', { kind: 'openai', model: 'gpt-5.1' }],
    ['gemini', { kind: 'google', model: 'gemini-2.5-flash' }],
    ['ollama', { kind: 'ollama', model: 'qwen2.5vl:7b', images: true }],
  ] as const)('reach a vision model over %s in the form its API takes', async (format, entry) => {
    const { bodies, provider } = await session(format, entry as Omit<ProviderConfig, 'id' | 'baseUrl'>, [{ toolCalls: [{ name: 'everything__get-tiny-image', args: {} }] }, { text: 'A logo.' }]);
    expect(provider.supportsImages).toBe(true);
    const body = bodies[1]!;
    if (format === 'openai-responses') {
      // Inside the function_call_output itself.
      const output = (body.input as Json[]).find((i) => i.type === 'function_call_output')!.output as Json[];
      expect(output).toContainEqual({ type: 'input_image', image_url: `data:image/png;base64,${tinyImage}` });
      expect(JSON.stringify(output)).toContain('[image 1: image/png');
    } else if (format === 'gemini') {
      // In the same user turn as the functionResponse.
      const turn = (body.contents as Json[]).find((c) => (c.parts as Json[]).some((p) => p.functionResponse))!;
      expect(turn.parts as Json[]).toContainEqual({ inlineData: { mimeType: 'image/png', data: tinyImage } });
    } else {
      // Ollama's tool messages are text: the image rides on the user message right after them.
      const m = msgs(body);
      const tool = m.findIndex((x) => x.role === 'tool');
      expect(String(m[tool]!.content)).not.toContain(tinyImage);
      expect(m[tool + 1]).toMatchObject({ role: 'user', images: [tinyImage] });
    }
  });

  it('are named, not sent, to a model without vision, which is told why', async () => {
    const { bodies, provider } = await session('openai-chat', { kind: 'openai-compatible', model: 'some-local-model' }, [{ toolCalls: [{ name: 'everything__get-tiny-image', args: {} }] }, { text: 'ok' }]);
    expect(provider.supportsImages).toBe(false);
    const text = JSON.stringify(bodies[1]);
    expect(text).not.toContain(tinyImage.slice(0, 200));
    expect(text).toContain('[image 1: image/png');
    expect(text).toContain('not shown: this model does not take images');
  });
});

describe('resource links', () => {
  it('are offered with the call that reads them, and read on demand through resources__read_resource', async () => {
    const uri = 'demo://resource/dynamic/text/2';
    const turns: WireTurn[] = [{ toolCalls: [{ name: 'everything__get-resource-links', args: { count: 2 } }] }, { toolCalls: [{ name: 'resources__read_resource', args: { server: 'everything', uri } }] }, { toolCalls: [{ name: 'resources__read_resource', args: { server: 'everything', uri: 'demo://resource/dynamic/blob/1' } }] }, { text: 'Read it.' }];
    const { bodies } = await session('openai-chat', { kind: 'openai-compatible', model: 'local' }, turns);
    const toolMsgs = (i: number) => msgs(bodies[i]!).filter((x) => x.role === 'tool');
    const links = String(toolMsgs(1)[0]!.content);
    expect(links).toContain(`[resource link: ${uri} ("Text Resource 2", text/plain, Resource 2: plaintext resource). To read it, call resources__read_resource with server "everything" and uri "${uri}"]`);
    // After a link, the resources toolset is reachable: the call opened it and read the text.
    expect(String(toolMsgs(2)[1]!.content)).toMatch(/Resource 2: This is a plaintext resource created at/);
    // A text blob is decoded for the model.
    expect(String(toolMsgs(3)[2]!.content)).toMatch(/Resource 1: This is a base64 blob created at/);
  });

  it('are read on demand in xml mode too, in a session limited to its toolsets', async () => {
    const uri = 'demo://resource/dynamic/text/2';
    const turns: WireTurn[] = [
      { text: '<everything__get-resource-links>\n<count>2</count>\n</everything__get-resource-links>' },
      { text: `<resources__read_resource>\n<server>everything</server>\n<uri>${uri}</uri>\n</resources__read_resource>` },
      { text: 'Read it.' },
    ];
    // A session limited to its toolsets (as a workflow step is) still reads what a result linked to.
    const { bodies } = await session('openai-chat', { kind: 'openai-compatible', model: 'local' }, turns, 'xml', ['everything']);
    expect(String(msgs(bodies[1]!).at(-1)!.content)).toContain(`To read it, call resources__read_resource with server "everything" and uri "${uri}"`);
    expect(String(msgs(bodies[2]!).at(-1)!.content)).toMatch(/\[resources__read_resource\]\n\[Toolset "resources" was opened for this call.\]\nResource 2: This is a plaintext resource/);
  });

  it('an unreadable link says what failed', async () => {
    const turns: WireTurn[] = [{ toolCalls: [{ name: 'everything__get-resource-links', args: { count: 1 } }] }, { toolCalls: [{ name: 'resources__read_resource', args: { server: 'everything', uri: 'demo://nope/1' } }] }, { text: 'ok' }];
    const { bodies } = await session('openai-chat', { kind: 'openai-compatible', model: 'local' }, turns);
    const last = msgs(bodies[2]!).filter((x) => x.role === 'tool').at(-1)!;
    expect(String(last.content)).toMatch(/\nCould not read demo:\/\/nope\/1 from "everything": .*not found/);
  });
});

describe('structured content and output schemas', () => {
  it("summarizes a tool's output schema in its description", async () => {
    const tools = await hubTools(hub).openToolset('everything');
    const t = tools.find((x) => x.tool === 'get-structured-content')!;
    expect(t.description).toContain('Returns {temperature: number, conditions: string, humidity: number}');
    expect(outputSummary(undefined)).toBe('');
    expect(outputSummary({ type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { a: {}, b: {} } } } } })).toBe('Returns {items?: {a, b}[]}');
  });

  it('shows structured content the text does not hold; not twice when the text is its JSON', async () => {
    const tools = hubTools(hub);
    const t = (await tools.openToolset('everything')).find((x) => x.tool === 'get-structured-content')!;
    const r = await tools.call(t, { location: 'Chicago' }, { signal: new AbortController().signal });
    const raw = await hub.callTool('everything', 'get-structured-content', { location: 'Chicago' });
    const json = JSON.stringify(raw.structuredContent);
    expect(json).toContain('Light rain');
    // server-everything puts the JSON in its text block too: it appears once.
    expect(r.content.split('Light rain').length - 1).toBe(1);
    // A tool whose text is prose gets the structured result appended.
    const prose = { ...t, tool: 'get-structured-content' };
    const fake = hubTools({ ...hub, toolsets: () => hub.toolsets(), openToolset: (n) => hub.openToolset(n), readResource: (u, s) => hub.readResource(u, s), callTool: async () => ({ content: [{ type: 'text', text: 'It rains in Chicago.' }], structuredContent: { temperature: 36 } }) });
    const r2 = await fake.call(prose, {}, { signal: new AbortController().signal });
    expect(r2.content).toBe('It rains in Chicago.\nStructured result:\n{"temperature":36}');
  });
});

describe('sampling keeps images', () => {
  it("passes a server's image on to the model as an image of the user message", async () => {
    const seen: ChatMessage[][] = [];
    const provider: ProviderHandle = {
      id: 'p',
      kind: 'openai-compatible',
      model: 'm',
      contextWindow: 8000,
      supportsNativeTools: true,
      supportsImages: true,
      async *stream(req) {
        seen.push(req.messages);
        yield { type: 'text', text: 'a logo' };
      },
    };
    const handle = samplingHandler(provider, async () => 'allow_once', () => 'r1');
    const out = await handle({ server: 's', params: { maxTokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', data: tinyImage, mimeType: 'image/png' }] }] } as never }, new AbortController().signal);
    expect(out.content).toMatchObject({ type: 'text', text: 'a logo' });
    expect(seen[0]![0]).toEqual({ role: 'user', content: 'what is this?\n[image 1: image/png]', images: [{ mediaType: 'image/png', data: tinyImage }] });
  });
});
