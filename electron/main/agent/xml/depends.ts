// The `depends` chain: a call takes an earlier call's result from the same message as a parameter.
//
//   <search_files id="hits">…</search_files>
//   <write_to_file>
//   <path>hits.txt</path>
//   <content>{{hits.result}}</content>
//   </write_to_file>
//
// `{{ID.result}}` stands for the whole text result of the earlier call declared with `id="ID"`. Only ids
// declared earlier in the same message count: any other `{{…}}` is left as the literal text it is.
import { coerceString, schemaType } from './values';
import type { JsonSchema, ToolCallEvent } from './types';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\.result\s*\}\}/g;

/** Ids referenced by `{{id.result}}` placeholders in the value, among those `known` accepts, in order. */
export function findReferences(value: string, known: (id: string) => boolean): string[] {
  if (!value.includes('{{')) return [];
  const out: string[] = [];
  for (const m of value.matchAll(PLACEHOLDER)) {
    const id = m[1] as string;
    if (known(id) && !out.includes(id)) out.push(id);
  }
  return out;
}

export type Resolved = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/**
 * Replaces the call's `{{id.result}}` placeholders with the results of the calls it depends on
 * (`results`: id → result text) and coerces the parameters that held one by the tool's schema.
 * Errors are data: a missing result or a result of the wrong type gives `{ ok: false, message }`.
 */
export function resolveDependencies(
  call: Pick<ToolCallEvent, 'args' | 'dependsOn'>,
  results: ReadonlyMap<string, string>,
  inputSchema?: JsonSchema,
): Resolved {
  const missing = call.dependsOn.filter((id) => !results.has(id));
  if (missing.length > 0) {
    return { ok: false, message: `This call uses the result of ${missing.map((id) => `"${id}"`).join(', ')}, which is not available (that call failed or did not run).` };
  }
  if (call.dependsOn.length === 0) return { ok: true, args: call.args };
  const deps = new Set(call.dependsOn);
  const sub = (s: string): string =>
    s.replace(PLACEHOLDER, (whole, id: string) => (deps.has(id) ? (results.get(id) as string) : whole));
  const deep = (v: unknown): unknown => {
    if (typeof v === 'string') return sub(v);
    if (Array.isArray(v)) return v.map(deep);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]));
    return v;
  };
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(call.args)) {
    const prop = inputSchema?.properties?.[key];
    if (typeof value === 'string' && findReferences(value, (id) => deps.has(id)).length > 0) {
      const text = sub(value);
      const type = schemaType(prop);
      if (type === undefined || type === 'string') {
        args[key] = text;
        continue;
      }
      const c = coerceString(text, prop);
      if (!c.ok) return { ok: false, message: `Parameter "${key}" ${c.message} (after substituting the results it depends on).` };
      args[key] = c.value;
    } else {
      args[key] = deep(value);
    }
  }
  return { ok: true, args };
}
