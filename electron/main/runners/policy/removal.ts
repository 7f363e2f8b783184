import { posix } from 'node:path';
import { existingFile, protectedBases, protectedHit } from './targets';
import { hasFlag, splitOptions } from './flags';
import type { Arg, Finding, ProgramCall, ProgramCheck } from './types';

const approve = (reason: string): Finding => ({ verdict: 'approve', reason });
const refuse = (reason: string): Finding => ({ verdict: 'refuse', reason });
const DOT: Arg = { word: { text: '.', pattern: '.', glob: false }, raw: '.', node: null };

/** Checks each removal target: refused when protected, approval when decided at run time. */
export function removalTargets(call: ProgramCall, operands: Arg[], verb: string): Finding[] {
  const out: Finding[] = [];
  if (call.fromStdin) out.push(approve(`${call.name} would ${verb} paths that arrive on its input (xargs): they cannot be checked`));
  if (operands.length === 0 && !call.fromStdin) return out;
  for (const a of operands) {
    if (!a.word) {
      out.push(approve(`${call.name} would ${verb} ${a.raw}, a path decided only when the command runs`));
      continue;
    }
    const hit = protectedHit(a.word, call.env);
    if (hit) out.push(refuse(`${call.name} would ${verb} ${a.raw}${a.word.text !== a.raw ? ` (${a.word.text})` : ''}, which is ${hit} or directly inside it`));
  }
  return out;
}

export const rm: ProgramCheck = (call) => {
  const { options, operands } = splitOptions(call.args);
  const out = removalTargets(call, operands, 'remove');
  if (hasFlag(options, 'rR', '--recursive')) out.push(approve(`recursive delete: ${call.name} ${call.args.map((a) => a.raw).join(' ')}`));
  if (options.includes('--no-preserve-root')) out.push(refuse('rm --no-preserve-root'));
  if (operands.some((a) => a.word?.glob)) out.push(approve(`${call.name} removes whatever a glob matches`));
  return out;
};

export const rmdir: ProgramCheck = (call) => removalTargets(call, splitOptions(call.args).operands, 'remove');

export const shred: ProgramCheck = (call) => {
  const { operands } = splitOptions(call.args, new Set(['-n', '-s', '--iterations', '--size']));
  return [approve(`${call.name} destroys file contents`), ...removalTargets(call, operands, 'shred')];
};

export const mv: ProgramCheck = (call) => {
  const { options, operands } = splitOptions(call.args, new Set(['-t', '-S', '--suffix', '--target-directory']));
  if (operands.length < 2 && !options.some((o) => o.startsWith('-t') || o.startsWith('--target-directory'))) return [];
  const targetDir = options.find((o) => o.startsWith('-t') || o.startsWith('--target-directory'));
  const sources = targetDir ? operands : operands.slice(0, -1);
  const out = removalTargets(call, sources, 'move away');
  const dest = targetDir ? undefined : operands[operands.length - 1];
  if (dest && !dest.word) out.push(approve(`${call.name} writes to ${dest.raw}, decided only when the command runs`));
  else if (dest?.word && existingFile(dest.word, call.env) && !hasFlag(options, 'n', '--no-clobber')) {
    out.push(approve(`${call.name} overwrites the existing file ${dest.raw}`));
  }
  return out;
};

export const cp: ProgramCheck = (call) => {
  const { options, operands } = splitOptions(call.args, new Set(['-t', '-S', '--suffix', '--target-directory']));
  const dest = operands[operands.length - 1];
  if (operands.length < 2 || !dest) return [];
  if (!dest.word) return [approve(`${call.name} writes to ${dest.raw}, decided only when the command runs`)];
  if (existingFile(dest.word, call.env) && !hasFlag(options, 'n', '--no-clobber')) return [approve(`${call.name} overwrites the existing file ${dest.raw}`)];
  return [];
};

/** find: -delete and -exec/-execdir/-ok run their own commands over whatever it finds. */
export const find: ProgramCheck = (call) => {
  const args = call.args;
  const firstExpr = args.findIndex((a) => a.word === null || /^[-(!]/.test(a.word.text));
  const starts = firstExpr < 0 ? args : args.slice(0, firstExpr);
  const out: Finding[] = [];
  let destructive = false;
  for (let i = 0; i < args.length; i++) {
    const t = args[i]?.word?.text;
    if (t === '-delete') {
      destructive = true;
      out.push(approve('find -delete removes everything it matches'));
    } else if (t === '-exec' || t === '-execdir' || t === '-ok' || t === '-okdir') {
      let end = i + 1;
      while (end < args.length && args[end]?.word?.text !== ';' && args[end]?.word?.text !== '+') end++;
      const inner = args.slice(i + 1, end).map((a) => (a.word?.text === '{}' ? { ...a, word: null, raw: '{}' } : a));
      const findings = call.nestedArgv(inner, `find ${t}`, false);
      if (findings.some((f) => f.verdict !== 'run')) destructive = true;
      out.push(...findings);
      i = end;
    } else if (t === '-fprint' || t === '-fprintf' || t === '-fls') out.push(approve(`find ${t} writes a file`));
  }
  if (destructive) {
    const bases = protectedBases(call.env);
    for (const s of starts.length ? starts : [DOT]) {
      if (!s.word) continue;
      // find never deletes `.` itself, only what is under it; any other start path may go too.
      const isDot = /^\.\/?$/.test(s.word.text);
      const abs = posix.resolve(call.env.cwd, s.word.text);
      const hit = isDot ? (bases.includes(abs) ? abs : null) : protectedHit(s.word, call.env) ?? (bases.includes(abs) ? abs : null);
      if (hit) out.push(refuse(`find ${s.raw} with a destructive action would remove inside ${hit}`));
    }
  }
  return out;
};

/** rsync --delete makes the destination match the source: an empty source empties the destination. */
export const rsync: ProgramCheck = (call) => {
  const { options, operands } = splitOptions(call.args, new Set(['-e', '--rsh', '-f', '--filter', '--exclude', '--include', '-T', '--temp-dir']));
  const deleting = options.some((o) => o.startsWith('--delete') || o === '--remove-source-files');
  if (!deleting) return [];
  const dest = operands[operands.length - 1];
  const out = [approve(`rsync ${options.filter((o) => o.startsWith('--delete') || o === '--remove-source-files').join(' ')} removes files`)];
  if (dest && !dest.raw.includes(':')) out.push(...removalTargets({ ...call, fromStdin: false }, [dest], 'empty'));
  return out;
};
