// The "Tool use" prompt section generated from the tools' schemas, and the corrective messages that
// tell a model what went wrong with a call and what is available.
import { schemaType } from './values';
import type { JsonSchema, ToolMap, ToolSpec } from './types';

export interface ToolUseSectionOptions {
  /** Document `!command` lines (default true: match the parser's `shell` option). */
  shell?: boolean;
}

const INTRO = `# Tool use

You can use the tools listed below. To use one, write its name as an XML tag, with each parameter as a
child tag on its own line:

<tool_name>
<parameter1_name>value1</parameter1_name>
<parameter2_name>value2</parameter2_name>
</tool_name>

Rules:
- Write a value exactly as it should be used (file contents verbatim, with their own line breaks); do not
  escape it. A value may contain tags, even the parameter's own closing tag: the parameter ends only at
  its closing tag followed by the next parameter's opening tag or the tool's closing tag.
- Numbers and booleans are written plainly (42, true); arrays and objects as JSON (["a", "b"], {"k": 1}).
- You may use several tools in one message: they run in the order written, and their results come back
  in the next message. Text before, between and after calls is fine.
- A call runs only when it is written as plain text. Tags inside code fences, inline code or <thinking>,
  and mentions such as "the <read_file> tool" on a line of prose, are not run.
- To use the result of an earlier call in the same message, give that call an id (<read_file id="cfg">)
  and write {{cfg.result}} in a later parameter: it is replaced by that call's whole result text, and
  the later call runs only after the earlier one succeeded.
- Instead of XML you may write a call as JSON in a fenced block marked json:
  \`\`\`json
  {"tool": "tool_name", "arguments": {"parameter1_name": "value1"}}
  \`\`\``;

const SHELL = `- A line that starts with ! runs the rest of the line as a shell command, for example:
  !git status`;

/** The whole "Tool use" section: the protocol, then every tool with its parameters, usage and example. */
export function formatToolUseSection(tools: ToolMap, options: ToolUseSectionOptions = {}): string {
  const parts = [options.shell === false ? INTRO : `${INTRO}\n${SHELL}`, '# Tools'];
  if (tools.size === 0) parts.push('No tools are available.');
  for (const [name, spec] of tools) parts.push(formatTool(name, spec));
  return parts.join('\n\n') + '\n';
}

/** One tool's documentation: description, parameters, a usage block and an example. */
export function formatTool(name: string, spec: ToolSpec): string {
  const lines = [`## ${name}`, '', `Description: ${oneParagraph(spec.description) || 'No description.'}`, '', 'Parameters:', ''];
  const params = paramList(spec.inputSchema);
  if (params.length === 0) lines.push('- (none)');
  for (const p of params) {
    const type = describeType(p.schema);
    const desc = oneParagraph(p.schema.description);
    lines.push(`- ${p.name}: (${p.required ? 'required' : 'optional'}${type ? `, ${type}` : ''})${desc ? ` ${desc}` : ''}`);
  }
  lines.push('', 'Usage:', '', usageBlock(name, spec), '', `Example: ${exampleTitle(name, spec)}`, '', exampleBlock(name, spec));
  return lines.join('\n');
}

/** `<name>` with every parameter and a hint of what goes in it. */
export function usageBlock(name: string, spec: ToolSpec): string {
  const params = paramList(spec.inputSchema);
  const body = params.map((p) => `<${p.name}>${usageHint(p.name, p.schema, p.required)}</${p.name}>`);
  return [`<${name}>`, ...body, `</${name}>`].join('\n');
}

/** A concrete call: required parameters and the optional ones that have an example or a default. */
export function exampleBlock(name: string, spec: ToolSpec): string {
  const body: string[] = [];
  for (const p of paramList(spec.inputSchema)) {
    const v = exampleValue(p.name, p.schema, p.required);
    if (v !== undefined) body.push(`<${p.name}>${v}</${p.name}>`);
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

function exampleValue(name: string, s: JsonSchema, required: boolean): string | undefined {
  const given = s.examples?.[0] ?? s.default ?? s.const ?? s.enum?.[0];
  if (given !== undefined) return typeof given === 'string' ? given : JSON.stringify(given);
  if (!required) return undefined;
  switch (schemaType(s)) {
    case 'number':
    case 'integer':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
    case 'object':
      return JSON.stringify(sampleJson(name, s, 0));
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
    case 'array':
      return depth > 3 ? [] : [sampleJson(name, s?.items, depth + 1)];
    case 'object': {
      const props = Object.entries(s?.properties ?? {});
      if (props.length === 0 || depth > 3) return { key: 'value' };
      return Object.fromEntries(props.map(([k, p]) => [k, sampleJson(k, p, depth + 1)]));
    }
    default:
      return sampleString(name).trim();
  }
}

function sampleString(name: string): string {
  const n = name.toLowerCase();
  if (n.includes('path') || n.includes('file')) return 'src/main.ts';
  if (n.includes('dir') || n.includes('folder')) return 'src';
  if (n.includes('url') || n.includes('uri')) return 'https://example.com';
  if (n.includes('command') || n === 'cmd') return 'npm test';
  if (n.includes('content') || n.includes('text') || n.includes('body')) return '\nHello, world!\n';
  if (n.includes('pattern') || n.includes('regex')) return 'TODO';
  if (n.includes('query') || n.includes('search')) return 'error handling';
  if (n.includes('name') || n === 'id') return 'example';
  return `${name} value`;
}

function exampleTitle(name: string, spec: ToolSpec): string {
  const params = paramList(spec.inputSchema).filter((p) => p.required);
  return params.length > 0 ? `using ${name} with ${params.map((p) => p.name).join(', ')}` : `using ${name}`;
}

function oneParagraph(s: string | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}
