// The streaming tool-call parser for `xml` mode: one pass over the chunks as they come, text, tool_call,
// shell and invalid_call events out. What is and is not a call, and what is held back: see README.md.
import { CallBook } from './calls';
import { Fence, type FenceSink } from './fence';
import { UnknownCallWatch, readUnknownOpen } from './unknown-call';
import { plainProse, readFenceOpening, shellLine } from './prose';
import { BACKTICK, BANG, NL, SP, TILDE, followsOpenTag, partialTail, readOpenTag } from './scan';
import { XmlCall } from './xml-call';
import type { ParserEvent, ParserOptions, ToolCallParser, ToolMap } from './types';

const TEXT = 0;
const INLINE = 1;
const FENCE = 2;
const THINK = 3;
const SHELL = 4;
const CALL = 5;

const THINK_TAGS: ReadonlyArray<readonly [string, string]> = [
  ['<thinking>', '</thinking>'],
  ['<think>', '</think>'],
];
const TEXT_SPECIAL = /[<`\n]/g;
const INLINE_SPECIAL = /[`\n]/g;
const NON_BLANK = /\S/;

export function createToolCallParser(options: ParserOptions): ToolCallParser {
  return new Parser(options.tools, options.shell ?? true);
}

class Parser implements ToolCallParser {
  private pending = '';
  private held = false;
  private mode = TEXT;
  private lineStart = true;
  /** Nothing but whitespace so far on this line of prose (where a thinking block may open). */
  private lineBlank = true;
  private text = '';
  private events: ParserEvent[] = [];
  private ticks = 0;
  private fence: Fence | undefined;
  private thinkClose = '';
  private shellRaw = '';
  private call: XmlCall | undefined;
  private readonly unknown = new UnknownCallWatch();
  private readonly book: CallBook;
  private readonly maxName: number;
  private readonly isTool: (name: string) => boolean;

  constructor(
    private readonly tools: ToolMap,
    private readonly shell: boolean,
  ) {
    this.book = new CallBook(tools);
    this.maxName = Math.max(8, ...[...tools.keys()].map((n) => n.length));
    this.isTool = (name) => tools.has(name);
  }

  push(chunk: string): ParserEvent[] {
    if (this.pending === '' && this.absorb(chunk)) return this.take();
    this.run(this.pending + chunk, false);
    return this.take();
  }

  /**
   * Fast path for the common small chunk that cannot change the state (no character that any state
   * reacts to): it is appended where it belongs. Same result as run(), a fraction of the work.
   */
  private absorb(chunk: string): boolean {
    switch (this.mode) {
      case CALL:
        return (this.call as XmlCall).absorb(chunk);
      case TEXT:
        return this.absorbProse(chunk);
      case THINK:
        if (chunk.indexOf('<') >= 0) return false;
        this.text += chunk;
        return true;
      case FENCE:
        return (this.fence as Fence).absorb(chunk);
      default:
        return false;
    }
  }

  /** Plain prose (see plainProse): appended as it is. */
  private absorbProse(chunk: string): boolean {
    const from = plainProse(chunk, this.lineStart, this.shell);
    if (from === null) return false;
    if (from > 0) {
      this.lineStart = from === chunk.length;
      this.lineBlank = !NON_BLANK.test(chunk.slice(from));
    } else {
      this.lineStart = false;
      if (this.lineBlank && NON_BLANK.test(chunk)) this.lineBlank = false;
    }
    this.text += chunk;
    return true;
  }

  end(): ParserEvent[] {
    this.run(this.pending, true);
    this.finish();
    return this.take();
  }

  private run(s: string, final: boolean): void {
    this.pending = '';
    let i = 0;
    while (i < s.length) {
      const next = this.step(s, i, final);
      if (this.held) {
        this.held = false;
        this.pending = s.slice(next);
        return;
      }
      i = next;
    }
  }

  private step(s: string, i: number, final: boolean): number {
    switch (this.mode) {
      case TEXT:
        return this.textStep(s, i, final);
      case INLINE:
        return this.inlineStep(s, i, final);
      case FENCE:
        return this.fenceStep(s, i, final);
      case THINK:
        return this.thinkStep(s, i, final);
      case SHELL:
        return this.shellStep(s, i);
      default:
        return this.callStep(s, i, final);
    }
  }

  private hold(at: number, final: boolean): number {
    if (!final) this.held = true;
    return at;
  }

  private take(): ParserEvent[] {
    this.flushText();
    const out = this.events;
    this.events = [];
    return out;
  }

  private flushText(): void {
    if (this.text !== '') {
      if (this.unknown.active) this.unknown.record(this.text);
      this.events.push({ type: 'text', text: this.text });
      this.text = '';
    }
  }

  private emit(e: ParserEvent): void {
    this.flushText();
    this.events.push(e);
  }

  // ---- prose ----

  private textStep(s: string, i: number, final: boolean): number {
    if (this.lineStart) {
      const r = this.lineStartStep(s, i, final);
      if (r >= 0) return r;
    }
    TEXT_SPECIAL.lastIndex = i;
    const m = TEXT_SPECIAL.exec(s);
    const j = m === null ? s.length : m.index;
    if (j > i) {
      const t = i === 0 && j === s.length ? s : s.slice(i, j);
      if (this.lineBlank && NON_BLANK.test(t)) this.lineBlank = false;
      this.text += t;
    }
    if (j === s.length) return j;
    const c = s.charCodeAt(j);
    if (c === NL) {
      this.text += '\n';
      this.lineStart = true;
      this.lineBlank = true;
      return j + 1;
    }
    if (c === BACKTICK) {
      let k = j;
      while (k < s.length && s.charCodeAt(k) === BACKTICK) k++;
      if (k === s.length && !final) return this.hold(j, final);
      this.ticks = k - j;
      this.mode = INLINE;
      this.lineBlank = false;
      this.text += s.slice(j, k);
      return k;
    }
    return this.tagStep(s, j, final);
  }

  /** At the start of a line: a shell command, a fence, or (returns -1) ordinary text. */
  private lineStartStep(s: string, i: number, final: boolean): number {
    const c = s.charCodeAt(i);
    if (c === BANG && this.shell) {
      this.lineStart = false;
      this.mode = SHELL;
      this.shellRaw = '';
      return i;
    }
    if (c === SP || c === BACKTICK || c === TILDE) {
      const open = readFenceOpening(s, i, final);
      if (open.kind === 'hold') return this.hold(i, final);
      if (open.kind === 'fence') {
        this.lineStart = false;
        this.fence = new Fence(open.ch, open.len, open.end - i, s.slice(i, open.end), this.fenceSink);
        this.mode = FENCE;
        return open.end;
      }
    }
    return this.notLineStart();
  }

  private notLineStart(): number {
    this.lineStart = false;
    return -1;
  }

  private tagStep(s: string, j: number, final: boolean): number {
    const blank = this.lineBlank;
    this.lineBlank = false;
    for (const [open, close] of THINK_TAGS) {
      // A thinking block opens only as the first thing on its line: "… in <thinking> tags" is prose.
      if (!blank) break;
      if (!final && s.length - j < open.length && open.startsWith(s.slice(j))) {
        this.lineBlank = true;
        return this.hold(j, final);
      }
      if (s.startsWith(open, j)) {
        this.text += open;
        this.thinkClose = close;
        this.mode = THINK;
        return j + open.length;
      }
    }
    if (this.unknown.active && s.charCodeAt(j + 1) === 47) {
      const close = this.unknown.close;
      if (s.startsWith(close, j)) return this.closeUnknown(close, j);
      if (!final && s.length - j < close.length && close.startsWith(s.slice(j))) return this.hold(j, final);
    }
    const tag = readOpenTag(s, j, final, this.isTool, this.maxName);
    if (tag.kind === 'hold') {
      this.lineBlank = blank;
      return this.hold(j, final);
    }
    if (tag.kind === 'none') {
      if (blank) {
        const open = readUnknownOpen(s, j, final, this.isTool);
        if (open.kind === 'hold') {
          this.lineBlank = blank;
          return this.hold(j, final);
        }
        if (open.kind === 'open') {
          this.flushText();
          this.unknown.start(open.name);
          this.text += s.slice(j, open.end);
          return open.end;
        }
      }
      this.text += '<';
      return j + 1;
    }
    const follow = followsOpenTag(s, tag.end, final, tag.selfClosing);
    if (follow === 'hold') return this.hold(j, final);
    if (follow === 'mention') {
      this.text += s.slice(j, tag.end);
      return tag.end;
    }
    const openTag = s.slice(j, tag.end);
    this.flushText();
    this.unknown.cancel();
    if (tag.selfClosing) {
      const id = tag.attrs.find(([k]) => k === 'id')?.[1];
      const params = tag.attrs.filter(([k]) => k !== 'id');
      this.emit(this.book.build({ name: tag.name, form: 'xml', raw: openTag, id, params }));
      return tag.end;
    }
    this.call = new XmlCall(tag.name, tag.attrs, openTag, this.tools);
    this.mode = CALL;
    return tag.end;
  }

  private closeUnknown(close: string, j: number): number {
    this.text += close;
    this.flushText();
    const { name, raw } = this.unknown.take();
    this.events.push(this.book.unknownTool(name, raw));
    return j + close.length;
  }

  private inlineStep(s: string, i: number, final: boolean): number {
    INLINE_SPECIAL.lastIndex = i;
    const m = INLINE_SPECIAL.exec(s);
    if (m === null) {
      this.text += s.slice(i);
      return s.length;
    }
    const j = m.index;
    if (j > i) this.text += s.slice(i, j);
    if (s.charCodeAt(j) === NL) {
      // An unclosed code span ends with its line.
      this.text += '\n';
      this.mode = TEXT;
      this.lineStart = true;
      this.lineBlank = true;
      return j + 1;
    }
    let k = j;
    while (k < s.length && s.charCodeAt(k) === BACKTICK) k++;
    if (k === s.length && !final) return this.hold(j, final);
    this.text += s.slice(j, k);
    if (k - j === this.ticks) this.mode = TEXT;
    return k;
  }

  // ---- code fences ----

  private readonly fenceSink: FenceSink = {
    text: (t) => {
      this.text += t;
    },
    json: (raw, body) => this.jsonBlock(raw, body),
  };

  private fenceStep(s: string, i: number, final: boolean): number {
    const fence = this.fence as Fence;
    const next = fence.step(s, i, final);
    if (fence.held) {
      fence.held = false;
      return this.hold(next, final);
    }
    if (fence.done) {
      this.fence = undefined;
      this.mode = TEXT;
      this.lineStart = true;
      this.lineBlank = true;
    }
    return next;
  }

  /** A json fence: its calls, or (when it is not a call) its text. */
  private jsonBlock(raw: string, body: string): void {
    const events = this.book.fromJsonBlock(raw, body);
    if (events === null) this.text += raw;
    else for (const e of events) this.emit(e);
  }

  // ---- thinking, shell, calls ----

  private thinkStep(s: string, i: number, final: boolean): number {
    const close = this.thinkClose;
    const k = s.indexOf(close, i);
    if (k >= 0) {
      this.text += s.slice(i, k + close.length);
      this.mode = TEXT;
      return k + close.length;
    }
    const t = final ? s.length : partialTail(s, i, close);
    this.text += s.slice(i, t);
    return t < s.length ? this.hold(t, final) : s.length;
  }

  private shellStep(s: string, i: number): number {
    const nl = s.indexOf('\n', i);
    if (nl < 0) {
      this.shellRaw += s.slice(i);
      return s.length;
    }
    this.shellRaw += s.slice(i, nl);
    if (this.shellRaw.replace(/\r$/, '').endsWith('\\')) {
      this.shellRaw += '\n'; // a continued command line
      return nl + 1;
    }
    this.finishShell();
    this.text += '\n';
    this.mode = TEXT;
    this.lineStart = true;
    this.lineBlank = true;
    return nl + 1;
  }

  private finishShell(): void {
    const event = shellLine(this.shellRaw);
    if (event === null) this.text += this.shellRaw;
    else this.emit(event);
    this.shellRaw = '';
  }


  private callStep(s: string, i: number, final: boolean): number {
    const call = this.call as XmlCall;
    const next = call.step(s, i, final);
    if (call.held) {
      call.held = false;
      return this.hold(next, final);
    }
    if (call.status !== 'open') {
      this.call = undefined;
      this.mode = TEXT;
      this.emit(this.book.fromXml(call));
    }
    return next;
  }

  /** At the end of the message: whatever is still open is settled. */
  private finish(): void {
    switch (this.mode) {
      case FENCE:
        this.fence?.finish();
        this.fence = undefined;
        break;
      case SHELL:
        this.finishShell();
        break;
      case CALL:
        if (this.call) this.emit(this.book.fromXml(this.call));
        this.call = undefined;
        break;
    }
    this.mode = TEXT;
  }
}
