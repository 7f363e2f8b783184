// A fenced code block (``` or ~~~, at most three spaces of indent), from just after its opening run to
// its closing line. Its content is text, never a call, except in a block marked json whose whole content
// is a JSON call: that block is held until it closes and then handed over as a whole.
import { BACKTICK, CR, MAX_CLOSE_GAP, NL, SP, TAB } from './scan';

export interface FenceSink {
  /** Text to show as it is. */
  text(t: string): void;
  /** The whole block of a json fence that may be a call: its raw text and its content. */
  json(raw: string, body: string): void;
}

export class Fence {
  /** Set by step() when it needs more input: the return value is where to resume. */
  held = false;
  /** The closing line was read (or the opening line turned out not to open a fence). */
  done = false;
  private info = true;
  private json = false;
  private decided = false;
  private body = '';
  private lineStart = false;

  constructor(
    private readonly ch: number,
    private readonly len: number,
    private readonly infoAt: number,
    private open: string,
    private readonly sink: FenceSink,
  ) {}

  /** Whether the chunk can be taken without a scan (content in the middle of a line). */
  absorb(chunk: string): boolean {
    if (this.info || this.lineStart || chunk.indexOf('\n') >= 0) return false;
    this.content(chunk);
    return true;
  }

  step(s: string, i: number, final: boolean): number {
    return this.info ? this.infoLine(s, i) : this.line(s, i, final);
  }

  /** At the end of the message: an unclosed json fence may still hold a call. */
  finish(): void {
    if (this.info) this.sink.text(this.open);
    else if (this.json) this.sink.json(this.open + this.body, this.body);
    this.done = true;
  }

  private infoLine(s: string, i: number): number {
    const nl = s.indexOf('\n', i);
    if (nl < 0) {
      this.open += s.slice(i);
      return s.length;
    }
    this.open += s.slice(i, nl + 1);
    const info = this.open.slice(this.infoAt).trim();
    this.info = false;
    if (this.ch === BACKTICK && info.includes('`')) {
      // Not a fence: a line of inline code. It ends here, so it is all text.
      this.sink.text(this.open);
      this.done = true;
      return nl + 1;
    }
    this.json = (info.split(/\s/)[0] ?? '').toLowerCase() === 'json';
    if (!this.json) this.sink.text(this.open);
    this.lineStart = true;
    return nl + 1;
  }

  private line(s: string, i: number, final: boolean): number {
    const len = s.length;
    if (this.lineStart) {
      let k = i;
      while (k < len && k - i < 3 && s.charCodeAt(k) === SP) k++;
      let e = k;
      while (e < len && s.charCodeAt(e) === this.ch) e++;
      if (e - k >= this.len) {
        let w = e;
        while (w < len && w - e < MAX_CLOSE_GAP && (s.charCodeAt(w) === SP || s.charCodeAt(w) === TAB || s.charCodeAt(w) === CR)) w++;
        if (w === len) {
          if (!final) return this.hold(i);
          this.close(s.slice(i));
          return len;
        }
        if (s.charCodeAt(w) === NL) {
          this.close(s.slice(i, w + 1));
          return w + 1;
        }
      } else if (e === len && !final) {
        return this.hold(i);
      }
      this.lineStart = false;
    }
    const nl = s.indexOf('\n', i);
    const end = nl < 0 ? len : nl + 1;
    this.content(s.slice(i, end));
    if (nl >= 0) this.lineStart = true;
    return end;
  }

  private hold(at: number): number {
    this.held = true;
    return at;
  }

  private content(t: string): void {
    if (!this.json) {
      this.sink.text(t);
      return;
    }
    this.body += t;
    if (this.decided) return;
    const first = this.body.trimStart();
    if (first === '') return;
    this.decided = true;
    if (first[0] !== '{' && first[0] !== '[') {
      // Not a JSON call: show it as it comes.
      this.json = false;
      this.sink.text(this.open + this.body);
    }
  }

  private close(closeLine: string): void {
    this.done = true;
    if (this.json) this.sink.json(this.open + this.body + closeLine, this.body);
    else this.sink.text(closeLine);
  }
}
