/** Secret values shorter than this are not masked: they would mangle ordinary text. */
const MIN_LENGTH = 4;

/**
 * Replaces every known secret value with `[secret:NAME]` in text bound for logs, session files
 * or the UI. Longest values first, so a secret containing another is masked whole.
 */
export class Redactor {
  private readonly values = new Map<string, string>();
  private pattern: RegExp | undefined;
  private needles: readonly SecretBytes[] | undefined;

  add(name: string, value: string): void {
    if (value.length < MIN_LENGTH || this.values.get(value) === name) return;
    this.values.set(value, name);
    this.pattern = undefined;
    this.needles = undefined;
  }

  /** Every secret value as UTF-8 bytes with its mask's bytes, longest first (as `redact` tries them): for ByteStreamRedactor. */
  secretBytes(): readonly SecretBytes[] {
    this.needles ??= [...this.values]
      .sort(([a], [b]) => b.length - a.length)
      .map(([value, name]) => ({ value: Buffer.from(value), mask: Buffer.from(`[secret:${name}]`) }));
    return this.needles;
  }

  /** Whether this exact value is masked (a variable holding it is kept from commands' environments). */
  has(value: string): boolean {
    return this.values.has(value);
  }

  get size(): number {
    return this.values.size;
  }

  redact(text: string): string {
    if (this.values.size === 0 || !text) return text;
    if (!this.pattern) {
      const sorted = [...this.values.keys()].sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    }
    return text.replace(this.pattern, (m) => `[secret:${this.values.get(m) ?? 'redacted'}]`);
  }

  /**
   * How many characters at the end of `text` could be the start of a secret that the next chunk
   * completes (the longest suffix that is a proper prefix of a secret value).
   */
  pendingPrefix(text: string): number {
    let best = 0;
    for (const v of this.values.keys()) {
      // Only where the value's first character occurs in the last (length - 1) characters, longest first.
      for (let i = text.indexOf(v[0]!, Math.max(0, text.length - (v.length - 1))); i >= 0; i = text.indexOf(v[0]!, i + 1)) {
        if (text.length - i <= best) break;
        if (v.startsWith(text.slice(i))) {
          best = text.length - i;
          break;
        }
      }
    }
    return best;
  }

  /**
   * Redacts every string (and object key) inside a JSON-like value. Arrays and plain objects are
   * copied as they are walked; anything else goes through a JSON round trip. A value with no
   * secret in it comes back as it was, without being copied.
   */
  redactValue<T>(value: T): T {
    if (this.values.size === 0) return value;
    return this.walk(value, 0) as T;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (value === null || typeof value !== 'object') return value;
    const proto = Object.getPrototypeOf(value) as unknown;
    // Class instances (Date, Error, URL…) and absurdly deep values: what JSON would carry, redacted.
    if (depth > 64 || (!Array.isArray(value) && proto !== Object.prototype && proto !== null)) {
      const text = JSON.stringify(value);
      return text === undefined ? value : JSON.parse(this.redact(text));
    }
    let changed = false;
    if (Array.isArray(value)) {
      const out = value.map((v) => {
        const r = this.walk(v, depth + 1);
        if (r !== v) changed = true;
        return r;
      });
      return changed ? out : value;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = this.redact(k);
      const r = this.walk(v, depth + 1);
      if (key !== k || r !== v) changed = true;
      out[key] = r;
    }
    return changed ? out : value;
  }
}

/** A secret value's UTF-8 bytes and the bytes of what replaces it. */
export interface SecretBytes {
  value: Buffer;
  mask: Buffer;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Redacts a stream of chunks (a server's stderr, a terminal's output): a secret split across two
 * chunks is still caught, by holding back a tail that could be a secret's beginning until the next
 * chunk (or `flush`). With no secrets registered, chunks pass through unchanged and undelayed.
 */
export class StreamRedactor {
  private carry = '';

  constructor(private readonly redactor: Redactor) {}

  push(chunk: string): string {
    const text = this.carry + chunk;
    if (this.redactor.size === 0) {
      this.carry = '';
      return text;
    }
    // Redact what is complete; a match may end inside the held-back tail, so redact first, then cut.
    const hold = this.redactor.pendingPrefix(text);
    this.carry = hold ? text.slice(text.length - hold) : '';
    return this.redactor.redact(hold ? text.slice(0, text.length - hold) : text);
  }

  flush(): string {
    const rest = this.redactor.redact(this.carry);
    this.carry = '';
    return rest;
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * StreamRedactor on bytes (a terminal's output as the PTY gives it, never decoded): each secret's UTF-8
 * bytes are searched with Buffer.indexOf, and a chunk's end that could begin a secret is held back until
 * the next chunk (or `flush`), so a secret split across chunks, even inside one of its multi-byte
 * characters, is still caught. UTF-8 is self-synchronising: a secret's bytes cannot match inside a
 * character of the text, so this masks exactly what StreamRedactor masks in the decoded text.
 * A chunk with nothing to mask and nothing held comes back as it was (the same Buffer).
 */
export class ByteStreamRedactor {
  private carry: Buffer = EMPTY;

  constructor(private readonly redactor: Redactor) {}

  push(chunk: Buffer): Buffer {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = EMPTY;
    if (this.redactor.size === 0) return bytes;
    const secrets = this.redactor.secretBytes();
    const hold = pendingPrefixBytes(bytes, secrets);
    // Copied: the chunk's buffer goes on to be sent and kept.
    if (hold) this.carry = Buffer.from(bytes.subarray(bytes.length - hold));
    return redactBytes(hold ? bytes.subarray(0, bytes.length - hold) : bytes, secrets);
  }

  flush(): Buffer {
    const rest = this.carry;
    this.carry = EMPTY;
    return rest.length ? redactBytes(rest, this.redactor.secretBytes()) : rest;
  }
}

/** `bytes` with every secret replaced by its mask, the leftmost first and the longest at a tie (as `Redactor.redact`'s alternation). */
export function redactBytes(bytes: Buffer, secrets: readonly SecretBytes[]): Buffer {
  const next = secrets.map((s) => bytes.indexOf(s.value));
  let first = nearest(next);
  if (first < 0) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  while (first >= 0) {
    const at = next[first]!;
    parts.push(bytes.subarray(from, at), secrets[first]!.mask);
    from = at + secrets[first]!.value.length;
    // Occurrences that began inside the one masked are searched again after it.
    for (let i = 0; i < secrets.length; i++) if (next[i]! >= 0 && next[i]! < from) next[i] = bytes.indexOf(secrets[i]!.value, from);
    first = nearest(next);
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/** The index of the smallest non-negative position (the first of equals: the longer secret), or -1. */
function nearest(positions: number[]): number {
  let best = -1;
  for (let i = 0; i < positions.length; i++) if (positions[i]! >= 0 && (best < 0 || positions[i]! < positions[best]!)) best = i;
  return best;
}

/** How many bytes at the end of `bytes` could begin a secret the next chunk completes (Redactor.pendingPrefix on bytes). */
export function pendingPrefixBytes(bytes: Buffer, secrets: readonly SecretBytes[]): number {
  let best = 0;
  const n = bytes.length;
  for (const { value } of secrets) {
    for (let i = bytes.indexOf(value[0]!, Math.max(0, n - (value.length - 1))); i >= 0; i = bytes.indexOf(value[0]!, i + 1)) {
      if (n - i <= best) break;
      if (value.compare(bytes, i, n, 0, n - i) === 0) {
        best = n - i;
        break;
      }
    }
  }
  return best;
}
