import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ImagePart } from '../../contract/index';
import type { McpHub } from '../mcp/hub';
import { qualifiedName } from '../mcp/types';
import type { AgentTool, AgentTools, ToolCallResult } from './tools';

/** The largest image passed on to the model (base64 characters, ≈ 3.75 MB of image: Anthropic's per-image limit is 5 MB). */
export const MAX_IMAGE_CHARS = 5_000_000;
/** Images a model accepts as image parts. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The toolset through which the model reads resources that tool results link to. */
export const RESOURCES_TOOLSET = 'resources';
export const READ_RESOURCE = 'read_resource';
const readResourceName = qualifiedName(RESOURCES_TOOLSET, READ_RESOURCE);

const kb = (base64: string) => `${Math.max(1, Math.round((base64.length * 3) / 4 / 1024))} kB`;

/** One image for the model, or the words that stand for it when it cannot go. */
function image(data: string, mediaType: string, images: ImagePart[], what: string): string {
  if (!IMAGE_TYPES.has(mediaType)) return `[${what}: ${mediaType}, ${kb(data)}; not passed on: only PNG, JPEG, GIF and WebP images reach the model]`;
  if (data.length > MAX_IMAGE_CHARS) return `[${what}: ${mediaType}, ${kb(data)}; too large to pass on (the limit is ${Math.round((MAX_IMAGE_CHARS * 3) / 4 / 1024 / 1024)} MB)]`;
  images.push({ mediaType, data });
  return `[image ${images.length}: ${what === 'image' ? '' : `${what}, `}${mediaType}, ${kb(data)}]`;
}

/** Whether some text part already holds the structured content (the spec asks servers to put its JSON in a text block). */
function textHolds(texts: string[], structured: unknown): boolean {
  const want = JSON.stringify(structured);
  return texts.some((t) => {
    try {
      return JSON.stringify(JSON.parse(t)) === want;
    } catch {
      return false;
    }
  });
}

/** A server-supplied string, cut to one short line (it goes into the model's text). */
const oneLine = (s: string, max = 200) => s.replace(/\s+/g, ' ').trim().slice(0, max);

export interface ResultContext {
  /** The server that returned the result: resource links are read from it. */
  server: string;
  /** The tool's declared output schema: its structured content is shown when the text does not hold it. */
  outputSchema?: Record<string, unknown>;
}

/**
 * An MCP tool result for the model: text parts as text; images as image parts (each named in the
 * text, so a model without vision still knows); embedded resources as their text or image; resource
 * links as a line saying how to read them; structured content when no text holds it.
 */
export function toolResult(r: CallToolResult, ctx: ResultContext): ToolCallResult & { links: number } {
  const images: ImagePart[] = [];
  const texts: string[] = [];
  let links = 0;
  const parts = (r.content ?? []).map((c) => {
    if (c.type === 'text') {
      texts.push(c.text);
      return c.text;
    }
    if (c.type === 'image') return image(c.data, c.mimeType, images, 'image');
    if (c.type === 'audio') return `[audio: ${c.mimeType}, ${kb(c.data)}; not passed on: models here take text and images only]`;
    if (c.type === 'resource') {
      const res = c.resource;
      if ('text' in res) return res.text;
      if (res.mimeType?.startsWith('image/')) return image(res.blob, res.mimeType, images, `resource ${res.uri}`);
      return `[resource ${res.uri}: ${res.mimeType ?? 'binary'}, ${kb(res.blob)} of binary data, not shown]`;
    }
    if (c.type === 'resource_link') {
      links++;
      const about = [c.name && c.name !== c.uri ? `"${oneLine(c.name, 80)}"` : '', c.mimeType ?? '', c.description ? oneLine(c.description) : ''].filter(Boolean).join(', ');
      // Words, not JSON: the same line serves native and xml tool calls.
      return `[resource link: ${c.uri}${about ? ` (${about})` : ''}. To read it, call ${readResourceName} with server ${JSON.stringify(ctx.server)} and uri ${JSON.stringify(c.uri)}]`;
    }
    return `[${(c as { type: string }).type} content, not shown]`;
  });
  if (r.structuredContent !== undefined) {
    if (!texts.length) parts.push(JSON.stringify(r.structuredContent));
    else if (ctx.outputSchema && !textHolds(texts, r.structuredContent)) parts.push(`Structured result:\n${JSON.stringify(r.structuredContent)}`);
  }
  return { content: parts.join('\n'), isError: r.isError === true, ...(images.length ? { images } : {}), links };
}

const isText = (mime: string) => mime.startsWith('text/') || /[/+](json|xml|yaml|csv)$/.test(mime);

/** A resource's contents for the model: text as text, images as image parts, other binary data named. */
export function resourceResult(r: ReadResourceResult, uri: string): ToolCallResult {
  const images: ImagePart[] = [];
  const parts = r.contents.map((c) => {
    const head = r.contents.length > 1 || c.uri !== uri ? `[${c.uri}${c.mimeType ? `, ${c.mimeType}` : ''}]\n` : '';
    if ('text' in c && typeof c.text === 'string') return `${head}${c.text}`;
    const blob = (c as { blob: string }).blob;
    if (c.mimeType?.startsWith('image/')) return image(blob, c.mimeType, images, `resource ${c.uri}`);
    if (c.mimeType && isText(c.mimeType)) return `${head}${Buffer.from(blob, 'base64').toString('utf8')}`;
    return `${head}[${c.mimeType ?? 'binary'} data, ${kb(blob)}, not shown]`;
  });
  return { content: parts.join('\n') || `The resource ${uri} is empty.`, isError: false, ...(images.length ? { images } : {}) };
}

/** Short words for a JSON Schema type: `string`, `number[]`, `{a, b}`. */
function typeWords(s: Record<string, unknown> | undefined, depth = 0): string {
  if (!s) return 'any';
  const t = s.type;
  if (Array.isArray(t)) return t.join(' | ');
  if (t === 'array') return `${typeWords(s.items as Record<string, unknown> | undefined, depth + 1)}[]`;
  if (t === 'object' || s.properties) {
    const props = Object.keys((s.properties as Record<string, unknown>) ?? {});
    return depth > 0 ? `{${props.slice(0, 6).join(', ')}${props.length > 6 ? ', …' : ''}}` : 'object';
  }
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  return typeof t === 'string' ? t : 'any';
}

/** One line naming what a tool's structured result holds, from its output schema. */
export function outputSummary(schema: Record<string, unknown> | undefined): string {
  const props = schema?.properties as Record<string, Record<string, unknown>> | undefined;
  if (!props || !Object.keys(props).length) return '';
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const fields = Object.entries(props).map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${typeWords(v, 1)}`);
  const line = fields.join(', ');
  return `Returns {${line.length > 300 ? `${line.slice(0, 300)}, …` : line}}`;
}

const readResourceTool: AgentTool = {
  name: readResourceName,
  server: '',
  tool: READ_RESOURCE,
  toolset: RESOURCES_TOOLSET,
  description: 'Read an MCP resource that a tool result linked to ([resource link: …]): its text, or its image for a model that takes images.',
  inputSchema: {
    type: 'object',
    properties: {
      server: { type: 'string', description: 'the server named in the resource link' },
      uri: { type: 'string', description: 'the resource URI, exactly as in the link' },
    },
    required: ['server', 'uri'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  alwaysAllow: true,
};

type HubPart = Pick<McpHub, 'toolsets' | 'openToolset' | 'callTool' | 'readResource'>;

/**
 * The MCP hub as the loop's AgentTools. Once a tool result links a resource, a `resources` toolset
 * joins the list: its read_resource reads the link from the server that gave it.
 */
export function hubTools(hub: HubPart): AgentTools {
  let linked = false;
  const ownsName = () => hub.toolsets().some((t) => t.name === RESOURCES_TOOLSET);
  return {
    toolsets: () => [
      ...hub.toolsets().map((t) => ({ name: t.name, description: t.description })),
      ...(linked && !ownsName() ? [{ name: RESOURCES_TOOLSET, description: 'read the resources that tool results link to', followUp: true }] : []),
    ],
    async openToolset(name) {
      if (name === RESOURCES_TOOLSET && !ownsName()) return [readResourceTool];
      return hub.openToolset(name).map(
        (t): AgentTool => ({
          name: t.qualifiedName,
          server: t.server,
          tool: t.name,
          toolset: name,
          description: [t.description || t.title || t.name, outputSummary(t.outputSchema)].filter(Boolean).join('\n'),
          inputSchema: t.inputSchema,
          ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
          annotations: t.annotations,
          alwaysAllow: t.alwaysAllow,
          ...(t.unlisted ? { unlisted: true } : {}),
        }),
      );
    },
    async call(tool, args, opts): Promise<ToolCallResult> {
      if (tool === readResourceTool || (tool.toolset === RESOURCES_TOOLSET && tool.tool === READ_RESOURCE && !tool.server)) {
        const uri = typeof args.uri === 'string' ? args.uri : '';
        const server = typeof args.server === 'string' && args.server ? args.server : undefined;
        if (!uri) return { content: `${readResourceName} needs "uri": the resource URI exactly as the link gave it.`, isError: true };
        try {
          return resourceResult(await hub.readResource(uri, server), uri);
        } catch (err) {
          return { content: `Could not read ${uri}${server ? ` from "${server}"` : ''}: ${(err as Error).message}`, isError: true };
        }
      }
      const r = await hub.callTool(tool.server, tool.tool, args, { signal: opts.signal, timeoutMs: opts.timeoutMs, onProgress: opts.onProgress, ...(opts.meta ? { meta: opts.meta } : {}) });
      const { links, ...out } = toolResult(r, { server: tool.server, outputSchema: tool.outputSchema });
      if (links) linked = true;
      return out;
    },
  };
}
