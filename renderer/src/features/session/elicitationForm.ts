/** A field of an elicitation's `requestedSchema` (MCP allows flat objects of primitive properties). */
export type Field =
  | { kind: 'string'; name: string; title: string; description?: string; required: boolean; format?: string; default?: string }
  | { kind: 'number'; name: string; title: string; description?: string; required: boolean; integer: boolean; default?: number }
  | { kind: 'boolean'; name: string; title: string; description?: string; required: boolean; default?: boolean }
  | { kind: 'enum'; name: string; title: string; description?: string; required: boolean; options: Array<{ value: string; label: string }>; default?: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** The fields to ask for; an empty list means a plain confirmation. */
export function fieldsOf(schema: Obj | undefined): Field[] {
  const props = isObj(schema?.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required.filter((x): x is string => typeof x === 'string') : []);
  const out: Field[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (!isObj(raw)) continue;
    const base = { name, title: str(raw.title) ?? name, description: str(raw.description), required: required.has(name) };
    const values = Array.isArray(raw.enum) ? raw.enum.filter((x): x is string => typeof x === 'string') : null;
    const oneOf = Array.isArray(raw.oneOf) ? raw.oneOf.filter(isObj).map((o) => ({ value: String(o.const ?? ''), label: str(o.title) ?? String(o.const ?? '') })) : null;
    if (values || oneOf) {
      const names = Array.isArray(raw.enumNames) ? raw.enumNames : [];
      const options = oneOf ?? values!.map((v, i) => ({ value: v, label: typeof names[i] === 'string' ? (names[i] as string) : v }));
      out.push({ ...base, kind: 'enum', options, default: str(raw.default) });
    } else if (raw.type === 'boolean') out.push({ ...base, kind: 'boolean', default: typeof raw.default === 'boolean' ? raw.default : undefined });
    else if (raw.type === 'number' || raw.type === 'integer') out.push({ ...base, kind: 'number', integer: raw.type === 'integer', default: typeof raw.default === 'number' ? raw.default : undefined });
    else out.push({ ...base, kind: 'string', format: str(raw.format), default: str(raw.default) });
  }
  return out;
}

export type Content = Record<string, string | number | boolean>;

/** Turns the form's text values into typed content, or says which field is wrong. */
export function contentOf(fields: Field[], values: Record<string, string | boolean>): { content: Content } | { error: string } {
  const content: Content = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      content[f.name] = v === true;
      continue;
    }
    const text = typeof v === 'string' ? v.trim() : '';
    if (!text) {
      if (f.required) return { error: `${f.title} is required.` };
      continue;
    }
    if (f.kind === 'number') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.integer && !Number.isInteger(n))) return { error: `${f.title} must be ${f.integer ? 'a whole number' : 'a number'}.` };
      content[f.name] = n;
    } else content[f.name] = text;
  }
  return { content };
}
