import type { Arg } from './types';

/** Splits arguments into options and operands, honouring `--` (everything after it is an operand). */
export function splitOptions(args: Arg[], optionsWithValue: ReadonlySet<string> = new Set()): { options: string[]; operands: Arg[] } {
  const options: string[] = [];
  const operands: Arg[] = [];
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = a.word?.text;
    if (done || t === undefined || !t.startsWith('-') || t === '-') {
      operands.push(a);
      continue;
    }
    if (t === '--') {
      done = true;
      continue;
    }
    options.push(t);
    if (optionsWithValue.has(t)) i++;
  }
  return { options, operands };
}

/** Whether a short flag letter appears in any combined short option (`-rf`, `-Rv`) or a long one is present. */
export function hasFlag(options: string[], short: string, ...long: string[]): boolean {
  return options.some((o) => (/^-[^-]/.test(o) && short.length > 0 && [...short].some((c) => o.slice(1).includes(c))) || long.some((l) => o === l || o.startsWith(`${l}=`)));
}

/** The static texts of args, or null when any is dynamic. */
export function texts(args: Arg[]): string[] | null {
  const out: string[] = [];
  for (const a of args) {
    if (!a.word) return null;
    out.push(a.word.text);
  }
  return out;
}

/** Quotes a word for re-parsing in a nested command line. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
