/** Secret values shorter than this are not masked: they would mangle ordinary text. */
const MIN_LENGTH = 4;

/**
 * Replaces every known secret value with `[secret:NAME]` in text bound for logs, session files
 * or the UI. Longest values first, so a secret containing another is masked whole.
 */
export class Redactor {
  private readonly values = new Map<string, string>();
  private pattern: RegExp | undefined;

  add(name: string, value: string): void {
    if (value.length < MIN_LENGTH || this.values.get(value) === name) return;
    this.values.set(value, name);
    this.pattern = undefined;
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
