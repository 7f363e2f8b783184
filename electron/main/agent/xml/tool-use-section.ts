// The "Tool use" prompt section generated from the tools' schemas, and the corrective messages that
// tell a model what went wrong with a call and what is available.
import { schemaType } from './values';
import type { JsonSchema, ToolMap, ToolSpec } from './types';

export interface ToolUseSectionOptions {
  /** Document `!command` lines (default true: match the parser's `shell` option). */
  shell?: boolean;
  /** A toolset to open in the format's example (a real name from the session); without one, no example call. */
  exampleToolset?: string;
}

/**
 * The protocol, once per session (the system prompt's "Tool use" section): how a call is written, the
 * one value rule, order of results, where calls do not run, full names, `!` lines.
 */
export function toolUseRules(options: ToolUseSectionOptions = {}): string {
  const example = options.exampleToolset
    ? `. This opens the ${options.exampleToolset} toolset (the result lists its tools, parameters and examples):\n\n<open_toolset>\n<name>${options.exampleToolset}</name>\n</open_toolset>\n`
    : '.\n';
  const lines = [
    '# Tool use',
    '',
    `Write a call as the tool's name in an XML tag, each parameter as a child tag, then the closing tag${example}`,
    '- Values: a short value on one line (a path, a name) is trimmed; file contents are taken as written, from the line after the opening tag up to the closing tag, so with the tags on their own lines they end with one line break, one line or many. Never escape. Numbers and booleans plainly (42, true); arrays and objects as JSON (["a.py"]).',
    '- Calls run in the order written; their results come back together in the next message.',
    '- Calls run only as plain text: not in a code block, inline code or <thinking>, nor a tag mentioned in a sentence.',
    '- A tool of a toolset that is not open can be called by its full name (toolset__tool); the toolset opens on the way.',
  ];
  if (options.shell !== false) lines.push('- A line starting with ! runs the rest as a shell command, e.g. !git status');
  return lines.join('\n');
}

/** The protocol and the given tools (the system prompt's section when tools are open from the start). */
export function formatToolUseSection(tools: ToolMap, options: ToolUseSectionOptions = {}): string {
  const rules = toolUseRules(options);
  return tools.size ? `${rules}\n\n${formatTools(tools)}` : `${rules}\n`;
}

/** Parameters that at least this many tools of a list share (same name, type and text) are described once. */
const SHARED_MIN = 3;

/** A list of tools: optional parameters most of them share described once, then each tool with its own parameters and an example. */
export function formatTools(tools: ToolMap): string {
  const shared = sharedParams(tools);
  const parts: string[] = [];
  if (shared.length) parts.push(`Every tool below (unless it says otherwise) also takes these optional parameters:\n${shared.map((p) => paramLine(p)).join('\n')}`);
  const skip = new Set(shared.map((p) => p.name));
  for (const [name, spec] of tools) parts.push(formatTool(name, spec, skip));
  return parts.join('\n\n') + '\n';
}

/** One tool: description, its parameters (but the shared ones in `skip`), and an example call with realistic values. */
export function formatTool(name: string, spec: ToolSpec, skip: ReadonlySet<string> = new Set()): string {
  const params = paramList(spec.inputSchema).filter((p) => !(skip.has(p.name) && !p.required));
  const lines = [`## ${name}`, oneParagraph(spec.description) || 'No description.'];
  lines.push(params.length ? `Parameters:\n${params.map((p) => paramLine(p)).join('\n')}` : 'Parameters: none.');
  const example = exampleBlock(name, spec);
  // A call without parameters needs no example: the format shows it.
  if (example && example.split('\n').length > 2) lines.push(`Example:\n${example}`);
  return lines.join('\n');
}

function paramLine(p: Param): string {
  const type = describeType(p.schema);
  const desc = oneParagraph(p.schema.description);
  return `- ${p.name} (${p.required ? 'required' : 'optional'}${type ? `, ${type}` : ''})${desc ? `: ${desc}` : ''}`;
}

function sharedParams(tools: ToolMap): Param[] {
  const count = new Map<string, { p: Param; n: number }>();
  for (const spec of tools.values()) {
    for (const p of paramList(spec.inputSchema)) {
      if (p.required) continue;
      const key = `${p.name}\u0000${JSON.stringify(p.schema)}`;
      const c = count.get(key);
      if (c) c.n++;
      else count.set(key, { p, n: 1 });
    }
  }
  return [...count.values()].filter((c) => c.n >= SHARED_MIN && c.n >= tools.size / 2).map((c) => c.p);
}

/** `<name>` with every parameter and a hint of what goes in it (for corrections). */
export function usageBlock(name: string, spec: ToolSpec): string {
  const params = paramList(spec.inputSchema);
  const body = params.map((p) => `<${p.name}>${usageHint(p.name, p.schema, p.required)}</${p.name}>`);
  return [`<${name}>`, ...body, `</${name}>`].join('\n');
}

/**
 * A concrete call: the required parameters, and optional ones only where the schema gives an example.
 * Undefined when a required parameter has no realistic value (no example rather than a placeholder).
 */
export function exampleBlock(name: string, spec: ToolSpec): string | undefined {
  const body: string[] = [];
  for (const p of paramList(spec.inputSchema)) {
    const v = exampleValue(p.name, p.schema, p.required);
    if (v === null) return undefined;
    if (v === undefined) continue;
    body.push(v.includes('\n') ? `<${p.name}>\n${v}</${p.name}>` : `<${p.name}>${v}</${p.name}>`);
  }
  return [`<${name}>`, ...body, `</${name}>`].join('\n');
}

/**
 * Text for the model after a call that could not run: the problem, then the tool's usage when the tool
 * is known, else the list of available tools.
 */
export function correctiveMessage(problem: string, tools: ToolMap, toolName?: string): string {
  const spec = toolName === undefined ? undefined : tools.get(toolName);
  const lines = [problem.trim()];
  if (spec && toolName !== undefined) {
    const params = paramList(spec.inputSchema);
    const list = params.map((p) => `${p.name} (${p.required ? 'required' : 'optional'}${describeType(p.schema) ? `, ${describeType(p.schema)}` : ''})`);
    lines.push(`Parameters of ${toolName}: ${list.length > 0 ? list.join(', ') : 'none'}. Usage:`, usageBlock(toolName, spec));
  } else {
    const names = [...tools.keys()];
    lines.push(names.length > 0 ? `Available tools: ${names.join(', ')}.` : 'No tools are available.');
  }
  lines.push('Write the whole call again with the fix, each parameter in its own child tag.');
  return lines.join('\n');
}

interface Param {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

function paramList(schema: JsonSchema): Param[] {
  const required = new Set(schema.required ?? []);
  const params = Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, schema: s, required: required.has(name) }));
  // Required parameters first, each group in schema order.
  return [...params.filter((p) => p.required), ...params.filter((p) => !p.required)];
}

function describeType(s: JsonSchema): string {
  const t = schemaType(s);
  if (s.enum && s.enum.length > 0) return `one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (t === 'array') {
    const it = schemaType(s.items);
    return it ? `array of ${it} as JSON` : 'array as JSON';
  }
  if (t === 'object') return 'object as JSON';
  return t ?? '';
}

function usageHint(name: string, s: JsonSchema, required: boolean): string {
  const t = describeType(s) || 'value';
  const desc = oneParagraph(s.description);
  const short = desc && desc.length <= 60 ? desc.replace(/\.$/, '') : `${name.replace(/_/g, ' ')} (${t})`;
  return required ? short : `${short} (optional)`;
}

/** A realistic value: the schema's example (or const, or for a required one its default or first enum value), else one made from the name; null = none. */
function exampleValue(name: string, s: JsonSchema, required: boolean): string | null | undefined {
  const given = s.examples?.[0] ?? s.const ?? (required ? (s.default ?? s.enum?.[0]) : undefined);
  if (given !== undefined) return typeof given === 'string' ? given : JSON.stringify(given);
  if (!required) return undefined;
  switch (schemaType(s)) {
    case 'number':
    case 'integer':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
    case 'object': {
      const v = sampleJson(name, s, 0);
      return v === null ? null : JSON.stringify(v);
    }
    default:
      return sampleString(name);
  }
}

function sampleJson(name: string, s: JsonSchema | undefined, depth: number): unknown {
  const given = s?.examples?.[0] ?? s?.default ?? s?.const ?? s?.enum?.[0];
  if (given !== undefined) return given;
  switch (schemaType(s)) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array': {
      const item = depth > 3 ? undefined : sampleJson(name.replace(/e?s$/, ''), s?.items, depth + 1);
      return item === null ? null : item === undefined ? [] : [item];
    }
    case 'object': {
      const props = Object.entries(s?.properties ?? {});
      if (props.length === 0 || depth > 3) return null;
      const out: Record<string, unknown> = {};
      for (const [k, p] of props) {
        const v = sampleJson(k, p, depth + 1);
        if (v === null) return null;
        out[k] = v;
      }
      return out;
    }
    default:
      return sampleString(name)?.trim() ?? null;
  }
}

/** A realistic string for a parameter, from its name; null when the name says too little. */
function sampleString(name: string): string | null {
  const n = name.toLowerCase();
  if (n.includes('content') || n.includes('text') || n.includes('body')) return '# Notes\n\nFirst line.\n';
  if (n.includes('path') || n.includes('file')) return 'README.md';
  if (n.includes('dir') || n.includes('folder')) return 'docs';
  if (n.includes('url') || n.includes('uri')) return 'https://example.com/';
  if (n.includes('command') || n === 'cmd') return 'ls -la';
  if (n.includes('message')) return 'Fix the empty-input case of the parser';
  if (n.includes('pattern') || n.includes('regex')) return 'TODO';
  if (n.includes('query') || n.includes('search')) return 'error handling';
  return null;
}

function oneParagraph(s: string | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}
