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

  /** Redacts every string inside a JSON-like value (returns a copy). */
  redactValue<T>(value: T): T {
    if (this.values.size === 0) return value;
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
