// A call to a tool that does not exist, written like a real one, first thing on its line:
//   <read_files>
//   <path>a.txt</path>
//   </read_files>
// It is not run and its text stays text (it is emitted as it comes, nothing is held), but the model must
// hear about it: when `</read_files>` closes the block, an invalid_call marked `shown` follows, listing
// the available tools. Only snake_case names with an underscore count, so HTML such as <div> is prose.
import { GT, NL, CR, isNameChar } from './scan';

const TOOL_LIKE = /^[A-Za-z][A-Za-z0-9]*(?:_{1,2}[A-Za-z0-9]+)+$/;
/** Beyond this much text, an unknown block is no longer followed. */
const MAX_LOG = 64 * 1024;

export type UnknownOpen = { kind: 'hold' } | { kind: 'none' } | { kind: 'open'; name: string; end: number };

/** `<tool_like_name>` at s[j], followed by a line break. */
export function readUnknownOpen(s: string, j: number, final: boolean, isTool: (name: string) => boolean): UnknownOpen {
  const len = s.length;
  let k = j + 1;
  while (k < len && k - j <= 128 && isNameChar(s.charCodeAt(k))) k++;
  if (k + 1 >= len) return final || k - j > 128 ? { kind: 'none' } : { kind: 'hold' };
  if (s.charCodeAt(k) !== GT) return { kind: 'none' };
  const name = s.slice(j + 1, k);
  const after = s.charCodeAt(k + 1);
  if ((after !== NL && after !== CR) || !TOOL_LIKE.test(name) || isTool(name)) return { kind: 'none' };
  return { kind: 'open', name, end: k + 1 };
}

export class UnknownCallWatch {
  private name = '';
  private closeTag = '';
  private log: string | undefined;

  get active(): boolean {
    return this.log !== undefined;
  }

  get close(): string {
    return this.closeTag;
  }

  start(name: string): void {
    this.name = name;
    this.closeTag = `</${name}>`;
    this.log = '';
  }

  /** Text emitted while the block is open (its raw text, for the event). */
  record(text: string): void {
    if (this.log === undefined) return;
    this.log += text;
    if (this.log.length > MAX_LOG) this.log = undefined;
  }

  cancel(): void {
    this.log = undefined;
  }

  /** The closed block: its name and raw text. */
  take(): { name: string; raw: string } {
    const out = { name: this.name, raw: this.log ?? '' };
    this.log = undefined;
    return out;
  }
}
