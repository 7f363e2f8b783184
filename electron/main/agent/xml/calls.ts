// From a parsed call (XML or JSON form) to a tool_call or an invalid_call event: ids, the depends
// chain, schema coercion, required parameters. One CallBook per message.
import { findReferences } from './depends';
import { parseJsonCalls } from './json-call';
import { correctiveMessage } from './tool-use-section';
import { coerceJsonValue, coerceString, decodeXmlValue, TEXT_PARAMS } from './values';
import type { InvalidCallEvent, ToolCallEvent, ToolMap } from './types';
import type { XmlCall } from './xml-call';

export interface ParsedCall {
  name: string;
  form: 'xml' | 'json';
  raw: string;
  /** Declared id, if any. */
  id?: string;
  /** XML form: raw parameter texts in order (attributes first); JSON form: the arguments. */
  params: ReadonlyArray<readonly [string, unknown]>;
}

const ID = /^[A-Za-z_][\w-]*$/;

export class CallBook {
  /** Declared ids of this message's calls → whether the call was valid. */
  private readonly declared = new Map<string, boolean>();
  private count = 0;

  constructor(private readonly tools: ToolMap) {}

  build(call: ParsedCall): ToolCallEvent | InvalidCallEvent {
    const { name, raw } = call;
    const spec = this.tools.get(name);
    if (!spec) return this.invalid(call, `Unknown tool "${name}".`, undefined);
    this.count++;
    const problems: string[] = [];
    if (call.id !== undefined) {
      if (!ID.test(call.id)) problems.push(`The id "${call.id}" is not valid: use letters, digits, _ and -, starting with a letter.`);
      else if (this.declared.has(call.id)) problems.push(`The id "${call.id}" is already used by an earlier call in this message.`);
    }
    const schema = spec.inputSchema;
    const props = schema.properties;
    const closed = props !== undefined && (schema.additionalProperties === undefined || schema.additionalProperties === false);
    const args: Record<string, unknown> = {};
    const dependsOn: string[] = [];
    for (const [key, value] of call.params) {
      const prop = props?.[key];
      if (closed && prop === undefined) {
        problems.push(`${name} has no parameter "${key}".`);
        continue;
      }
      const text = call.form === 'xml' ? decodeXmlValue(value as string, { text: TEXT_PARAMS.has(key) }) : value;
      const refs = findReferences(typeof text === 'string' ? text : (JSON.stringify(text) ?? ''), (id) => this.declared.has(id));
      for (const r of refs) if (!dependsOn.includes(r)) dependsOn.push(r);
      const c = call.form === 'xml' ? coerceString(text as string, prop) : coerceJsonValue(text, prop);
      if (refs.length > 0 && typeof text === 'string' && !(c.ok && typeof c.value === 'object' && c.value !== null)) {
        // A scalar (or unparsable) value with a placeholder: coerced by resolveDependencies once the
        // results are known. JSON arrays and objects are parsed now; their strings are substituted later.
        args[key] = text;
        continue;
      }
      if (c.ok) args[key] = c.value;
      else problems.push(`Parameter "${key}" ${c.message}.`);
    }
    for (const req of schema.required ?? []) {
      if (!(req in args) && !problems.some((p) => p.includes(`"${req}"`))) problems.push(`Missing required parameter "${req}".`);
    }
    const failed = dependsOn.filter((d) => this.declared.get(d) === false);
    if (failed.length > 0) problems.push(`It uses the result of ${failed.map((f) => `"${f}"`).join(', ')}, which could not run.`);
    if (problems.length > 0) return this.invalid(call, `Your call to ${name} was not run. ${problems.join(' ')}`, name);
    const id = call.id ?? this.freshId();
    if (call.id !== undefined) this.declared.set(call.id, true);
    return { type: 'tool_call', id, name, args, dependsOn, form: call.form, raw };
  }

  /** A finished XML call: closed, abandoned (another call began), or still open at the end. */
  fromXml(call: XmlCall): ToolCallEvent | InvalidCallEvent {
    const id = call.attrs.find(([k]) => k === 'id')?.[1];
    if (call.status === 'closed') return this.build({ name: call.name, form: 'xml', raw: call.raw, id, params: call.params() });
    return this.invalid({ name: call.name, raw: call.raw, id }, call.problem(), call.name);
  }

  /** The calls of a json fence, or null when its content is not a call (then it is only text). */
  fromJsonBlock(raw: string, body: string): Array<ToolCallEvent | InvalidCallEvent> | null {
    const calls = parseJsonCalls(body);
    if (calls === null) return null;
    return calls.map((c) =>
      c.badId
        ? this.invalid({ name: c.name, raw }, `Your call to ${c.name} was not run: its "id" must be a string.`, this.tools.has(c.name) ? c.name : undefined)
        : this.build({ name: c.name, form: 'json', raw, id: c.id, params: Object.entries(c.args) }),
    );
  }

  /** A block written like a call to a tool that does not exist; its text was shown as text. */
  unknownTool(name: string, raw: string): InvalidCallEvent {
    const message = correctiveMessage(`There is no tool named "${name}": nothing was run.`, this.tools);
    return { type: 'invalid_call', name, raw, message, shown: true };
  }

  /** A call that could not be completed (unclosed, malformed); `problem` says why. */
  invalid(call: Pick<ParsedCall, 'raw' | 'id'> & { name?: string }, problem: string, toolName: string | undefined): InvalidCallEvent {
    if (call.id !== undefined && ID.test(call.id) && !this.declared.has(call.id)) this.declared.set(call.id, false);
    const message = correctiveMessage(problem, this.tools, toolName);
    return call.name === undefined ? { type: 'invalid_call', raw: call.raw, message } : { type: 'invalid_call', name: call.name, raw: call.raw, message };
  }

  private freshId(): string {
    let id = `call_${this.count}`;
    while (this.declared.has(id)) id = `${id}_`;
    return id;
  }
}
