import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { AgentTool } from './tools';

type Check = (args: unknown) => { valid: boolean; errorMessage?: string };

/** Made at the first check, not at load: an Ajv instance costs every CLI start a few hundredths of a CPU-second. */
let validator: AjvJsonSchemaValidator | undefined;
/** Compiled once per schema object; `null` where the schema does not compile (the server then judges the call). */
const compiled = new WeakMap<object, Check | null>();

function checkOf(schema: Record<string, unknown>): Check | null {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = (validator ??= new AjvJsonSchemaValidator()).getValidator(schema as never) as Check;
    } catch {
      check = null;
    }
    compiled.set(schema, check);
  }
  return check;
}

interface Property {
  type?: unknown;
}

/** The tool's parameters in one line, e.g. `path (string, required), oldText (string, required), edits (array)`. */
export function parameterLine(schema: Record<string, unknown>): string {
  const props = (schema.properties ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(props);
  if (!names.length) return 'none';
  return names
    .map((n) => {
      const type = Array.isArray(props[n]?.type) ? (props[n]?.type as string[]).join(' or ') : typeof props[n]?.type === 'string' ? (props[n]?.type as string) : undefined;
      const bits = [type, required.has(n) ? 'required' : undefined].filter(Boolean);
      return bits.length ? `${n} (${bits.join(', ')})` : n;
    })
    .join(', ');
}

/**
 * Checks a call's arguments against the tool's input schema before anyone is asked to approve it: a call that
 * cannot succeed is answered at once, naming the tool as the model called it, what was wrong (unknown and missing
 * parameters first) and the parameters it takes, so the model can call it again correctly. Undefined when the
 * arguments match, or when the schema cannot be checked here (the server decides).
 */
export function argumentProblem(tool: AgentTool, args: Record<string, unknown>): string | undefined {
  const schema = tool.inputSchema;
  if (!schema || typeof schema !== 'object') return undefined;
  const check = checkOf(schema);
  if (!check) return undefined;
  const r = check(args);
  if (r.valid) return undefined;
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const unknown = Object.keys(args).filter((k) => !(k in props));
  const missing = required.filter((k) => args[k] === undefined);
  const said: string[] = [];
  if (unknown.length) said.push(`unknown parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  if (missing.length) said.push(`missing ${missing.join(', ')}`);
  const detail = r.errorMessage?.replace(/\bdata\//g, '').replace(/\bdata\b/g, 'the arguments');
  if (!said.length && detail) said.push(detail);
  return `Not run: the arguments of ${tool.name} do not match its parameters (${said.join('; ')}). Its parameters: ${parameterLine(schema)}. Call ${tool.name} again with these names.`;
}

/** The refusal of a call whose arguments were not an object of parameters (a bare string, a number, a list): what was sent, quoted. */
export function notAnObject(tool: AgentTool, sent: unknown): string {
  const said = JSON.stringify(sent) ?? String(sent);
  const what = Array.isArray(sent) ? 'a list' : sent === null ? 'null' : `a ${typeof sent}`;
  const schema = tool.inputSchema && typeof tool.inputSchema === 'object' ? (tool.inputSchema as Record<string, unknown>) : undefined;
  return `Not run: the arguments of ${tool.name} must be a JSON object of its parameters; you sent ${said.length > 200 ? `${said.slice(0, 200)}…` : said} (${what}).${schema ? ` Its parameters: ${parameterLine(schema)}.` : ''} Call ${tool.name} again with an object of these names.`;
}
