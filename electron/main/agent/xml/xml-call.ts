// One XML call being read, from just after its opening tag to its closing tag.
//
// The closing rule, which lets values hold any text (file contents, regexes, shell output that echoes
// tags, even the parameter's own closing tag): a parameter `p` of tool `t` ends only at `</p>` followed
// by optional whitespace and then either `</t>` or the opening tag `<q>` of a parameter of `t`. Any other
// `</p>` is part of the value. A value that starts with `<![CDATA[` runs verbatim to `]]>`.
// Between parameters, `</t>` ends the call; another tool's opening tag there means `</t>` was forgotten
// (the call is abandoned and reported); other text there is ignored.
import { CR, GT, LT, MAX_CLOSE_GAP, NL, SP, TAB, findTag, isNameChar, isSpace, partialTail, touchesTag } from './scan';
import type { ToolMap } from './types';

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';
const BODY = 0;
const VALUE = 1;
const CDATA = 2;

export class XmlCall {
  raw: string;
  status: 'open' | 'closed' | 'abandoned' = 'open';
  /** Set by step() when it needs more input before it can decide: the return value is where to resume. */
  held = false;
  private mode = BODY;
  private param = '';
  private closeParam = '';
  private valueStart = 0;
  private fresh = false;
  private readonly closeTool: string;
  private readonly paramNames: ReadonlySet<string>;
  private readonly confirmTags: string[];
  private readonly values: Array<[string, number, number]> = [];

  constructor(
    readonly name: string,
    readonly attrs: ReadonlyArray<readonly [string, string]>,
    openTag: string,
    private readonly tools: ToolMap,
  ) {
    this.raw = openTag;
    this.closeTool = `</${name}>`;
    this.paramNames = new Set(Object.keys(tools.get(name)?.inputSchema.properties ?? {}));
    this.confirmTags = [this.closeTool, ...[...this.paramNames].map((p) => `<${p}>`)];
  }

  /** Parameters in order: attributes (other than id), then tags, as raw text. */
  params(): Array<[string, string]> {
    const out: Array<[string, string]> = this.attrs.filter(([k]) => k !== 'id').map(([k, v]) => [k, v]);
    for (const [name, start, end] of this.values) out.push([name, this.raw.slice(start, end)]);
    return out;
  }

  /** Why the call is not complete, for the corrective message. */
  problem(): string {
    if (this.status === 'abandoned') return `Your call to ${this.name} was not run: it has no closing tag ${this.closeTool} before the next call.`;
    if (this.mode === BODY) return `Your call to ${this.name} was not run: the message ended without its closing tag ${this.closeTool}.`;
    const value = this.raw.slice(this.valueStart);
    if (value.includes(this.closeParam)) {
      return `Your call to ${this.name} was not run: after ${this.closeParam} there must be the next parameter's opening tag or ${this.closeTool}, with nothing else between; because of the text after it, the rest of the message was read as the value of "${this.param}".`;
    }
    return `Your call to ${this.name} was not run: the message ended inside the "${this.param}" parameter. Close it with ${this.closeParam} and then close the call with ${this.closeTool}.`;
  }

  /** Appends a chunk that cannot end or change the current value; false when it needs the full scan. */
  absorb(chunk: string): boolean {
    if (this.mode === VALUE) {
      // Nothing is held before this chunk, so a closing tag would have to start inside it: either whole,
      // or cut at the end (only its first character is a '<', so only the last '<' can start it).
      if (this.fresh || touchesTag(chunk, this.closeParam)) return false;
    } else if (this.mode !== CDATA || chunk.indexOf(']') >= 0) {
      return false;
    }
    this.raw += chunk;
    return true;
  }

  step(s: string, i: number, final: boolean): number {
    if (this.mode === BODY) return this.body(s, i, final);
    if (this.mode === CDATA) return this.cdata(s, i, final);
    return this.value(s, i, final);
  }

  private hold(at: number, final: boolean): number {
    if (!final) this.held = true;
    return at;
  }

  private body(s: string, i: number, final: boolean): number {
    const len = s.length;
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      this.raw += s.slice(i);
      return len;
    }
    if (lt > i) this.raw += s.slice(i, lt);
    if (s.startsWith(this.closeTool, lt)) {
      this.raw += this.closeTool;
      this.status = 'closed';
      return lt + this.closeTool.length;
    }
    if (!final && len - lt < this.closeTool.length && this.closeTool.startsWith(s.slice(lt))) return this.hold(lt, final);
    let k = lt + 1;
    while (k < len && k - lt <= 128 && isNameChar(s.charCodeAt(k))) k++;
    if (k === len && !final) return this.hold(lt, final);
    const name = s.slice(lt + 1, k);
    if (name !== '' && this.tools.has(name) && !this.paramNames.has(name)) {
      this.status = 'abandoned';
      return lt;
    }
    if (name !== '' && k < len && s.charCodeAt(k) === GT) {
      this.raw += s.slice(lt, k + 1);
      this.param = name;
      this.closeParam = `</${name}>`;
      const open = `<${name}>`;
      if (!this.confirmTags.includes(open)) this.confirmTags.push(open);
      this.valueStart = this.raw.length;
      this.mode = VALUE;
      this.fresh = true;
      return k + 1;
    }
    this.raw += '<';
    return lt + 1;
  }

  private value(s: string, i: number, final: boolean): number {
    const len = s.length;
    if (this.fresh) {
      let p = i;
      while (p < len && isSpace(s.charCodeAt(p))) p++;
      if (p > i) this.raw += s.slice(i, p);
      if (p === len) return len;
      if (s.startsWith(CDATA_OPEN, p)) {
        this.raw += CDATA_OPEN;
        this.fresh = false;
        this.mode = CDATA;
        return p + CDATA_OPEN.length;
      }
      if (!final && len - p < CDATA_OPEN.length && CDATA_OPEN.startsWith(s.slice(p))) return this.hold(p, final);
      this.fresh = false;
      i = p;
    }
    const close = this.closeParam;
    const k = findTag(s, close, i);
    if (k < 0) {
      const t = final ? len : partialTail(s, i, close);
      if (t > i) this.raw += s.slice(i, t);
      return t < len ? this.hold(t, final) : len;
    }
    if (k > i) this.raw += s.slice(i, k);
    const confirm = this.confirmed(s, k + close.length, final);
    if (confirm === 'hold') return this.hold(k, final);
    if (confirm === 'no') {
      this.raw += '<';
      return k + 1;
    }
    this.values.push([this.param, this.valueStart, this.raw.length]);
    this.raw += close;
    this.mode = BODY;
    return k + close.length;
  }

  private cdata(s: string, i: number, final: boolean): number {
    const k = s.indexOf(CDATA_CLOSE, i);
    if (k >= 0) {
      this.raw += s.slice(i, k + CDATA_CLOSE.length);
      this.mode = VALUE;
      return k + CDATA_CLOSE.length;
    }
    const t = final ? s.length : partialTail(s, i, CDATA_CLOSE);
    if (t > i) this.raw += s.slice(i, t);
    return t < s.length ? this.hold(t, final) : s.length;
  }

  /** Is the parameter's closing tag at p (just after it) confirmed by the tag that follows? */
  private confirmed(s: string, p: number, final: boolean): 'yes' | 'no' | 'hold' {
    const len = s.length;
    const start = p;
    while (p < len && p - start < MAX_CLOSE_GAP) {
      const c = s.charCodeAt(p);
      if (c !== SP && c !== TAB && c !== NL && c !== CR) break;
      p++;
    }
    if (p - start >= MAX_CLOSE_GAP) return 'no';
    if (p === len) return final ? 'yes' : 'hold';
    if (s.charCodeAt(p) !== LT) return 'no';
    let maybe = false;
    for (const tag of this.confirmTags) {
      if (s.startsWith(tag, p)) return 'yes';
      if (!maybe && len - p < tag.length && tag.startsWith(s.slice(p))) maybe = true;
    }
    // The opening tag of a tool (the call's closing tag was forgotten): the call is then abandoned.
    let k = p + 1;
    while (k < len && k - p <= 128 && isNameChar(s.charCodeAt(k))) k++;
    if (k === len) return final ? 'no' : 'hold';
    const c = s.charCodeAt(k);
    if ((c === GT || c === 47 || isSpace(c)) && this.tools.has(s.slice(p + 1, k))) return 'yes';
    return maybe && !final ? 'hold' : 'no';
  }
}
