/**
 * Fills `${VAR}`, `${env:VAR}`, `${secret:NAME}` and `${workspaceFolder}` in a config string.
 * Missing values are collected, not silently replaced with an empty string.
 */
export interface InterpolationSources {
  env: NodeJS.ProcessEnv;
  secret?: (name: string) => Promise<string | undefined>;
  workspaceFolder?: string;
  /**
   * Told of each environment variable a credential (a provider's key or header) was read from, with its value,
   * so that value is masked like a keychain secret and kept from the commands' environments.
   */
  credentialFromEnv?: (name: string, value: string) => void;
}

export class MissingVariableError extends Error {
  constructor(readonly missing: string[]) {
    super(`missing ${missing.length === 1 ? 'variable' : 'variables'}: ${missing.join(', ')}`);
    this.name = 'MissingVariableError';
  }
}

const REF = /\$\{([^}]+)\}/g;

/** Names referenced by a string, e.g. ['env:HOME', 'secret:GITHUB_TOKEN']. */
export function references(text: string): string[] {
  return [...text.matchAll(REF)].map((m) => m[1]!.trim());
}

export async function interpolate(text: string, sources: InterpolationSources): Promise<string> {
  const missing: string[] = [];
  const values = new Map<string, string>();
  for (const ref of new Set(references(text))) {
    const value = await lookup(ref, sources);
    if (value === undefined) missing.push(describe(ref));
    else values.set(ref, value);
  }
  if (missing.length) throw new MissingVariableError(missing);
  return text.replace(REF, (_m, ref: string) => values.get(ref.trim()) ?? '');
}

/** Interpolates every string in a JSON-like value; errors list every missing name at once. */
export async function interpolateDeep<T>(value: T, sources: InterpolationSources): Promise<T> {
  const missing: string[] = [];
  const walk = async (v: unknown): Promise<unknown> => {
    if (typeof v === 'string') {
      try {
        return await interpolate(v, sources);
      } catch (err) {
        if (err instanceof MissingVariableError) missing.push(...err.missing);
        else throw err;
        return v;
      }
    }
    if (Array.isArray(v)) return Promise.all(v.map(walk));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = await walk(x);
      return out;
    }
    return v;
  };
  const out = (await walk(value)) as T;
  if (missing.length) throw new MissingVariableError([...new Set(missing)]);
  return out;
}

async function lookup(ref: string, s: InterpolationSources): Promise<string | undefined> {
  if (ref === 'workspaceFolder') return s.workspaceFolder;
  if (ref.startsWith('secret:')) return s.secret ? s.secret(ref.slice(7)) : undefined;
  const name = ref.startsWith('env:') ? ref.slice(4) : ref;
  return s.env[name];
}

function describe(ref: string): string {
  if (ref === 'workspaceFolder') return '${workspaceFolder} (no project is open)';
  if (ref.startsWith('secret:')) return `secret ${ref.slice(7)}`;
  return `environment variable ${ref.startsWith('env:') ? ref.slice(4) : ref}`;
}
