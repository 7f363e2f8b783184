import { posix } from 'node:path';
import { hasFlag, splitOptions } from './flags';
import type { Arg, Finding, ProgramCall } from './types';

/**
 * Wrappers run another command given as their arguments (`sudo rm …`, `env X=1 rm …`,
 * `xargs rm`, `sh -c '…'`). `unwrap` peels them off so the policy judges the command that
 * really runs, and reports what the wrappers themselves add (root, input-driven arguments).
 */
export type Unwrapped = { kind: 'call'; call: ProgramCall; findings: Finding[] } | { kind: 'done'; findings: Finding[] };

const approve = (reason: string): Finding => ({ verdict: 'approve', reason });

/** Options that take a value, per wrapper, so the value is not mistaken for the command. */
const WITH_VALUE: Record<string, string[]> = {
  sudo: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--chdir'],
  doas: ['-u', '-C'],
  env: ['-u', '-C', '--unset', '--chdir'],
  nice: ['-n', '--adjustment'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  stdbuf: ['-i', '-o', '-e', '--input', '--output', '--error'],
  ionice: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'],
  xargs: ['-n', '-I', '-P', '-d', '-L', '-a', '-s', '-E', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--max-lines', '--max-chars', '--eof', '--replace'],
  exec: ['-a'],
  watch: ['-n', '--interval', '-d', '--differences'],
  time: ['-f', '-o', '--format', '--output'],
};

const ROOT_WRAPPERS = new Set(['sudo', 'doas', 'run0', 'pkexec']);
const PLAIN_WRAPPERS = new Set(['nice', 'nohup', 'time', 'stdbuf', 'ionice', 'setsid', 'builtin', 'exec', 'command', 'busybox', 'chronic', 'unbuffer', 'caffeinate', 'strace', 'ltrace', 'torsocks', 'proxychains']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);

/** Skips a wrapper's options; returns the index where the wrapped command starts. */
function skipOptions(args: Arg[], wrapper: string): number {
  const withValue = new Set(WITH_VALUE[wrapper] ?? []);
  let i = 0;
  while (i < args.length) {
    const t = args[i]?.word?.text;
    if (t === undefined || !t.startsWith('-') || t === '-') break;
    i++;
    if (t === '--') break;
    if (withValue.has(t)) i++;
  }
  return i;
}

export function programName(text: string): string {
  return posix.basename(text);
}

/** Peels one wrapper layer; `kind: 'done'` when the call is fully judged here. */
export function unwrapOnce(call: ProgramCall): Unwrapped | null {
  const { name, args } = call;
  const next = (from: number, findings: Finding[] = [], fromStdin = call.fromStdin): Unwrapped => {
    const rest = args.slice(from);
    const head = rest[0];
    if (!head) return { kind: 'done', findings };
    if (!head.word) return { kind: 'done', findings: [...findings, approve(`${name} runs a command decided at run time: ${head.raw}`)] };
    return { kind: 'call', call: { ...call, name: programName(head.word.text), path: head.word.text, args: rest.slice(1), fromStdin }, findings };
  };

  if (ROOT_WRAPPERS.has(name)) return next(skipOptions(args, name), [approve(`${name} runs the command as root`)]);
  if (name === 'command' && hasFlag(splitOptions(args).options, 'vV')) return { kind: 'done', findings: [] };
  if (PLAIN_WRAPPERS.has(name)) return next(skipOptions(args, name));
  if (name === 'timeout') return next(skipOptions(args, name) + 1);
  if (name === 'xargs') return next(skipOptions(args, name), [], true);
  if (name === 'env') {
    let i = 0;
    const findings: Finding[] = [];
    while (i < args.length) {
      const t = args[i]?.word?.text;
      if (t === undefined) break;
      if (t === '-S' || t === '--split-string' || t.startsWith('--split-string=') || (t.startsWith('-S') && t.length > 2)) {
        const str = t === '-S' || t === '--split-string' ? args[i + 1]?.word?.text : t.replace(/^(-S|--split-string=)/, '');
        if (str === undefined) return { kind: 'done', findings: [approve('env -S with a string decided at run time')] };
        return { kind: 'done', findings: call.nested(str, 'env -S') };
      }
      if (t.startsWith('-')) i += (WITH_VALUE.env ?? []).includes(t) ? 2 : 1;
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) i++;
      else break;
    }
    return next(i, findings);
  }
  if (SHELLS.has(name)) {
    const cIndex = args.findIndex((a) => a.word !== null && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a.word.text));
    if (cIndex >= 0) {
      const script = args.slice(cIndex + 1).find((a) => !a.word || !a.word.text.startsWith('-'));
      if (!script) return { kind: 'done', findings: [approve(`${name} -c without a command`)] };
      if (!script.word) return { kind: 'done', findings: [approve(`${name} -c runs a command decided at run time: ${script.raw}`)] };
      return { kind: 'done', findings: call.nested(script.word.text, `${name} -c`) };
    }
    const { operands } = splitOptions(args);
    if (operands.length === 0 || operands[0]?.word?.text === '-') {
      return { kind: 'done', findings: [approve(`${name} runs commands from its input${call.cmd.pipedInto ? ' (piped in)' : ''}, which cannot be checked`)] };
    }
    return { kind: 'done', findings: [approve(`${name} runs the script ${operands[0]?.raw ?? ''}, whose commands cannot be checked`)] };
  }
  if (name === 'eval' || name === 'watch') {
    const rest = args.slice(name === 'watch' ? skipOptions(args, name) : 0);
    if (rest.some((a) => !a.word)) return { kind: 'done', findings: [approve(`${name} runs a command built at run time`)] };
    return { kind: 'done', findings: call.nested(rest.map((a) => a.word?.text ?? '').join(' '), name) };
  }
  if (name === 'source' || name === '.') {
    return { kind: 'done', findings: [approve(`${name} runs the commands of ${args[0]?.raw ?? 'its input'} in this shell, which cannot be checked`)] };
  }
  return null;
}
