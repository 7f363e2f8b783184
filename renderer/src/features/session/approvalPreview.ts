import { diffLines } from 'diff';

/** What an approval will do, in the terms the user judges it by. */
export type Preview =
  | { kind: 'command'; command: string; original?: string; cwd?: string }
  | { kind: 'write'; path: string; lines: DiffLine[]; /** A whole-file write: the diff needs the file's current text. */ overwrite?: { content: string } }
  | { kind: 'args'; json: string };

export type DiffLine = { op: '+' | '-' | ' '; text: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function toLines(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const op = part.added ? '+' : part.removed ? '-' : ' ';
    const lines = part.value.replace(/\n$/, '').split('\n');
    for (const text of lines) out.push({ op, text });
  }
  return out;
}

/**
 * Reads an approval's arguments: a command (as it will run after rewriting, with the original when it
 * changed), a file write or edit (as a diff), or else the arguments as JSON. A whole-file write is
 * diffed against `current` (the file as it is on disk; undefined while unknown, null for a new file).
 */
export function previewOf(name: string, args: Record<string, unknown>, current?: string | null): Preview {
  const command = str(args.command) ?? str(args.cmd) ?? (name === '!' ? str(args.script) : undefined);
  if (command !== undefined) {
    const rewritten = str(args.rewritten) ?? str(args.rewrittenCommand);
    return { kind: 'command', command: rewritten ?? command, original: rewritten && rewritten !== command ? command : undefined, cwd: str(args.cwd) };
  }
  const path = str(args.path) ?? str(args.file) ?? str(args.filePath);
  if (path !== undefined) {
    const content = str(args.content) ?? str(args.text);
    if (content !== undefined) return { kind: 'write', path, lines: toLines(str(args.previous) ?? current ?? '', content), overwrite: { content } };
    // An edit: the first replacement in the arguments themselves (files__edit_file), more in `edits`.
    const pairs: Array<[string, string]> = [];
    const oldText = str(args.oldText) ?? str(args.old_string) ?? str(args.search);
    const newText = str(args.newText) ?? str(args.new_string) ?? str(args.replace);
    if (oldText !== undefined && newText !== undefined) pairs.push([oldText, newText]);
    for (const ed of Array.isArray(args.edits) ? args.edits : []) {
      const o = ed && typeof ed === 'object' ? (ed as Record<string, unknown>) : {};
      pairs.push([str(o.oldText) ?? '', str(o.newText) ?? '']);
    }
    // Replacements are apart in the file: a gap line between them.
    if (pairs.length) return { kind: 'write', path, lines: pairs.flatMap(([o, n], i) => [...(i ? [{ op: ' ' as const, text: '⋯' }] : []), ...toLines(o, n)]) };
  }
  return { kind: 'args', json: JSON.stringify(args, null, 2) };
}
