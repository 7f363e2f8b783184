// The JSON form of a call, in a fenced block marked json:
//   ```json
//   {"tool": "read_file", "id": "a", "arguments": {"path": "src/main.ts"}}
//   ```
// An array of such objects is several calls in order. `name` is accepted for `tool`, and `args`,
// `parameters` or `input` for `arguments`. Anything else in the block is not a call: it stays text.
import { isPlainObject } from './values';

export interface JsonCall {
  name: string;
  id?: string;
  args: Record<string, unknown>;
  /** The id key was present but not a string. */
  badId: boolean;
}

const ARG_KEYS = ['arguments', 'args', 'parameters', 'input'] as const;
const ALLOWED = new Set<string>(['tool', 'name', 'id', ...ARG_KEYS]);

/** The calls in a fenced JSON block, or null when the block is not a call. */
export function parseJsonCalls(text: string): JsonCall[] | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const items = Array.isArray(v) ? v : [v];
  if (items.length === 0) return null;
  const out: JsonCall[] = [];
  for (const item of items) {
    const call = asCall(item);
    if (!call) return null;
    out.push(call);
  }
  return out;
}

function asCall(item: unknown): JsonCall | null {
  if (!isPlainObject(item)) return null;
  if (!Object.keys(item).every((k) => ALLOWED.has(k))) return null;
  const argKeys = ARG_KEYS.filter((k) => k in item);
  if (argKeys.length > 1) return null;
  const name = typeof item.tool === 'string' ? item.tool : typeof item.name === 'string' && argKeys.length === 1 ? item.name : undefined;
  if (name === undefined || ('tool' in item && 'name' in item)) return null;
  const args = argKeys.length === 1 ? item[argKeys[0] as string] : {};
  if (!isPlainObject(args)) return null;
  const call: JsonCall = { name, args, badId: 'id' in item && typeof item.id !== 'string' };
  if (typeof item.id === 'string') call.id = item.id;
  return call;
}
