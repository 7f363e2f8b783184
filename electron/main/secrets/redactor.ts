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
      for (let n = Math.min(v.length - 1, text.length); n > best; n--) {
        if (text.endsWith(v.slice(0, n))) {
          best = n;
          break;
        }
      }
    }
    return best;
  }

  /** Redacts every string inside a JSON-like value (returns a copy). */
  redactValue<T>(value: T): T {
    if (this.values.size === 0) return value;
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
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
