import { posix } from 'node:path';
import { hasFlag, splitOptions } from './flags';
import type { Arg, Finding, ProgramCall } from './types';

/**
 * The default-ask gate. The program checks (programs.ts) know what destroys; this gate knows what is
 * understood: a short allow-list of programs that only read (or write inside the project, checked),
 * and everything else asks. A command that is not understood never runs unasked.
 */
const approve = (reason: string): Finding => ({ verdict: 'approve', reason });
/** Works on something outside the project: asked each time. */
const outside = (reason: string): Finding => ({ verdict: 'approve', reason, flag: 'outside' });
/** Writes where hooks and configuration live: asked each time. */
const hooks = (reason: string): Finding => ({ verdict: 'approve', reason, flag: 'hooks' });
const line = (call: ProgramCall): string => [call.name, ...call.args.map((a) => a.raw)].join(' ');

/** Programs that read, print or compute, and write nothing (their redirections are judged apart). */
const READ_ONLY = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'echo', 'printf', 'pwd', 'true', 'false',
  'test', '[', 'which', 'type', 'file', 'stat', 'du', 'df', 'date', 'whoami', 'id', 'uname', 'hostname', 'diff',
  'cmp', 'cut', 'tr', 'nl', 'basename', 'dirname', 'realpath', 'readlink', 'tree', 'sleep', 'seq', 'jq',
  'sha256sum', 'sha1sum', 'md5sum', 'base64', 'od', 'xxd', 'hexdump', 'column', 'fold', 'fmt', 'paste', 'comm',
  'tac', 'rev', 'expand', 'unexpand', 'printenv', 'ps', 'cd', 'pushd', 'popd', 'dirs', 'less', 'more', 'wait',
  'exit', 'return', 'shift', 'read', 'local', ':', 'nproc', 'free', 'uptime', 'tty', 'locale', 'getconf',
]);

/** Programs whose writes are checked here or in programs.ts (targets inside the project run). */
const CHECKED = new Set(['chmod', 'chgrp', 'rm', 'rmdir', 'unlink', 'mv', 'cp', 'mkdir', 'touch', 'tee', 'find', 'git', 'sed', 'sort', 'uniq', 'awk', 'gawk', 'mawk', 'xargs']);

/**
 * Build and test tools that run the project's own code: they run unasked only inside the sandbox
 * (where they can write the project and nothing else), and never with inline code.
 */
const PROJECT_TOOLS = new Set([
  'npm', 'pnpm', 'yarn', 'npx', 'node', 'python', 'python3', 'cargo', 'uv', 'make', 'go', 'tsc', 'pytest', 'rustc',
  'gcc', 'cc', 'g++', 'clang', 'deno', 'bun', 'vitest', 'jest', 'eslint', 'prettier', 'mvn', 'gradle', 'dotnet',
]);

/** Inline-code options of interpreters (`node -e`, `python -c` …): code that no policy can read. */
const INLINE: Record<string, string[]> = {
  node: ['-e', '--eval', '-p', '--print', '-r', '--require', '--import', '--loader', '--experimental-loader'],
  deno: ['eval'],
  bun: ['-e', '--eval'],
  python: ['-c'],
  python3: ['-c'],
  uv: ['-c'],
};

/** Programs (and subcommands) that reach the network: the sandbox gives them a network only when the user accepts. */
const NETWORK_PROGRAMS = new Set(['curl', 'wget', 'ssh', 'scp', 'sftp', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'rsync', 'pip', 'pip3', 'gh']);
const NETWORK_SUBCOMMANDS: Record<string, RegExp> = {
  git: /^(push|pull|fetch|clone|ls-remote|submodule|remote)$/,
  npm: /^(i|install|ci|add|update|publish|exec|x|create|init|audit|outdated|view|info)$/,
  pnpm: /^(i|install|add|update|up|publish|dlx|create|audit|outdated|fetch)$/,
  yarn: /^(install|add|upgrade|publish|dlx|create)$/,
  npx: /./,
  uv: /^(add|sync|lock|pip|tool|run|venv|python)$/,
  cargo: /^(fetch|install|add|update|publish|build|test|run|check)$/,
  go: /^(get|install|mod|build|test|run)$/,
  docker: /^(pull|push|build|run|login)$/,
};

export interface GateContext {
  /** The project folder: writes inside it are ordinary work. */
  root: string;
  /** Commands run in an OS sandbox (project writable, secrets hidden, network off). */
  sandboxed: boolean;
  /** The session's temporary folder ($TMPDIR), when known (PolicyContext.tmpDir). */
  tmpDir?: string;
}

/** Whether a path lies inside the session's temporary folder (below it: the folder itself is not a scratch file). */
export function inScratch(ctx: Pick<GateContext, 'tmpDir'>, abs: string): boolean {
  return ctx.tmpDir !== undefined && abs !== ctx.tmpDir && isInside(ctx.tmpDir, abs);
}

/**
 * A write outside the project that the sandbox will refuse ("Read-only file system"), approved or not: refused at once,
 * saying where a command can write, so the model writes there instead and nobody is asked for nothing. Only where the
 * sandbox is on and the session's folder is known; undefined otherwise (the write is asked, as outside the project).
 */
export function sandboxRefusal(ctx: GateContext, what: string): Finding | undefined {
  if (!ctx.sandboxed || ctx.tmpDir === undefined) return undefined;
  return { verdict: 'refuse', reason: `${what}, where the sandbox lets no command write (it would fail with "Read-only file system"): a command writes only in the project and in its own temporary folder, $TMPDIR (${ctx.tmpDir}); write scratch files there` };
}

/** Places inside the project whose content runs programs or changes Erasmus (hooks, git and editor config). */
const SENSITIVE_IN_ROOT = ['.git', '.erasmus', '.vscode', '.github', '.envrc', '.husky', '.idea'];

/** The project-relative sensitive place a path falls in, or null. */
export function sensitiveInRoot(root: string, abs: string): string | null {
  const r = posix.resolve(root);
  for (const s of SENSITIVE_IN_ROOT) {
    const p = posix.join(r, s);
    if (abs === p || abs.startsWith(`${p}/`)) return s;
  }
  return null;
}

export function isInside(root: string, abs: string): boolean {
  const r = posix.resolve(root);
  return abs === r || abs.startsWith(r.endsWith('/') ? r : `${r}/`);
}

/** Whether the command's static word resolves outside the root (dynamic words count as outside). */
export function outsideRoot(a: Arg, cwd: string, root: string): boolean {
  if (!a.word) return true;
  return !isInside(root, posix.resolve(cwd, a.word.text));
}

const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/[^/]+$/;

/** Needs the network (for the sandbox's network switch and the approval message). */
export function needsNetwork(call: ProgramCall): boolean {
  if (NETWORK_PROGRAMS.has(call.name)) return true;
  const sub = NETWORK_SUBCOMMANDS[call.name];
  if (!sub) return false;
  const first = call.args.find((a) => !a.word?.text.startsWith('-'));
  return !first?.word || sub.test(first.word.text);
}

/** The gate's findings for the effective program (wrappers already peeled). */
export function gate(call: ProgramCall, rawName: string, ctx: GateContext): Finding[] {
  const name = call.name;
  if (rawName.includes('/') && !SYSTEM_BIN.test(rawName)) return [approve(`runs the program ${rawName} by path (it may have been made or changed by this very command line)`)];
  if (READ_ONLY.has(name)) return [];
  if (CHECKED.has(name)) return checked(call, ctx);
  if (PROJECT_TOOLS.has(name)) {
    const inline = INLINE[name];
    if (inline && call.args.some((a) => a.word && inline.some((o) => a.word!.text === o || a.word!.text.startsWith(`${o}=`) || (o.length === 2 && a.word!.text.startsWith(o) && !a.word!.text.startsWith('--')))))
      return [approve(`${name} runs inline code that cannot be checked: ${line(call)}`)];
    // An argument known only when the line runs ($VAR, $(…)) could be an inline-code option: said as what it is.
    const unknown = inline ? call.args.find((a) => !a.word) : undefined;
    if (unknown) return [approve(`${name} takes an argument known only when the line runs (${unknown.raw}), which could be inline code and cannot be checked: ${line(call)}`)];
    if (!ctx.sandboxed) return [approve(`${name} runs the project's code, and no sandbox is available to keep it inside the project: ${line(call)}`)];
    for (let i = 0; i < call.args.length; i++) {
      const t = call.args[i]!.word?.text ?? '';
      const m = /^(-C|--directory|--cwd|--dir|--prefix|--manifest-path|--project|--root)(=(.*))?$/.exec(t);
      if (!m) continue;
      const value: Arg | undefined = m[2] !== undefined ? { ...call.args[i]!, word: { text: m[3]!, pattern: m[3]!, glob: false } } : call.args[i + 1];
      if (!value || outsideRoot(value, call.env.cwd, ctx.root)) return [outside(`${name} ${m[1]} works on ${value?.raw ?? 'nothing'}, outside the project: ${line(call)}`)];
    }
    if (call.args.some((a) => a.word && (a.word.text.startsWith('--prefix') || a.word.text === '-g' || a.word.text === '--global')))
      return [outside(`${name} installs outside the project: ${line(call)}`)];
    return needsNetwork(call) ? [approve(`${name} uses the network (the sandbox allows it only for this command, if you accept): ${line(call)}`)] : [];
  }
  if (['perl', 'ruby', 'php', 'lua', 'tclsh', 'osascript', 'powershell', 'pwsh'].includes(name)) return [approve(`${name} runs code that cannot be checked: ${line(call)}`)];
  if (['alias', 'unalias', 'export', 'declare', 'typeset', 'set', 'unset', 'hash', 'enable', 'trap', 'shopt', 'readonly', 'ulimit', 'umask'].includes(name))
    return [approve(`${name} changes how later commands run: ${line(call)}`)];
  if (needsNetwork(call)) return [approve(`${name} uses the network (uploads and downloads included): ${line(call)}`)];
  if (name === 'ln') return [approve(`${name} is not on the short list of programs that run without asking`), ...linkFindings(call, ctx)];
  return [approve(`${name} is not on the short list of programs that run without asking`)];
}

/**
 * `ln`: a link made outside the project, or a link in the project to a place outside it (Erasmus, and any tool that
 * follows links, then reads or writes out there through a path that looks like the project's).
 */
function linkFindings(call: ProgramCall, ctx: GateContext): Finding[] {
  const { options, operands } = splitOptions(call.args, new Set(['-S', '--suffix', '-t', '--target-directory']));
  if (options.some((o) => o.startsWith('-t') || o.startsWith('--target-directory'))) return [approve(`ln makes links in a folder given as an option: ${line(call)}`)];
  const cwd = call.env.cwd;
  const made = operands.length >= 2 ? operands[operands.length - 1]! : undefined;
  const out: Finding[] = [];
  if (made && outsideRoot(made, cwd, ctx.root)) out.push(outside(`ln makes a link at ${made.raw}, outside the project`));
  else if (made && sensitiveInRoot(ctx.root, posix.resolve(cwd, made.word!.text))) out.push(hooks(`ln makes a link at ${made.raw}, where hooks and configuration live (they run programs later)`));
  // A symbolic link's relative target is read from the link's folder (taken as the folder the link is named in).
  const symbolic = hasFlag(options, 's', '--symbolic');
  const from = symbolic && made?.word ? posix.dirname(posix.resolve(cwd, made.word.text)) : cwd;
  for (const target of made ? operands.slice(0, -1) : operands) {
    if (outsideRoot(target, from, ctx.root)) out.push(outside(`ln links to ${target.raw}, outside the project: what goes through the link reaches outside`));
  }
  return out;
}

function checked(call: ProgramCall, ctx: GateContext): Finding[] {
  const { name, args } = call;
  const cwd = call.env.cwd;
  const out: Finding[] = [];
  const writesOutside = (targets: Arg[], what: string) => {
    for (const a of targets) {
      if (a.word && inScratch(ctx, posix.resolve(cwd, a.word.text))) continue; // the command's own scratch space
      if (outsideRoot(a, cwd, ctx.root)) out.push((a.word && sandboxRefusal(ctx, `${name} ${what} ${a.raw}`)) || outside(`${name} ${what} ${a.raw}, outside the project`));
      else if (sensitiveInRoot(ctx.root, posix.resolve(cwd, a.word!.text))) out.push(hooks(`${name} ${what} ${a.raw}, where hooks and configuration live (they run programs later)`));
    }
  };
  switch (name) {
    case 'rm':
    case 'rmdir':
    case 'unlink':
      writesOutside(splitOptions(args).operands, 'removes');
      break;
    case 'mv':
      writesOutside(splitOptions(args, new Set(['-S', '--suffix'])).operands, 'moves');
      for (const o of splitOptions(args).options) if (o.startsWith('-t') || o.startsWith('--target-directory')) out.push(approve(`${name} moves into a target folder given as an option: ${line(call)}`));
      break;
    case 'cp': {
      const { options, operands } = splitOptions(args, new Set(['-S', '--suffix']));
      const dest = operands[operands.length - 1];
      if (dest && operands.length >= 2) writesOutside([dest], 'writes');
      if (options.some((o) => o.startsWith('-t') || o.startsWith('--target-directory'))) out.push(approve(`${name} copies into a target folder given as an option: ${line(call)}`));
      if (hasFlag(options, 'ls', '--link', '--symbolic-link')) out.push(approve(`${name} makes links to files it does not copy: ${line(call)}`));
      break;
    }
    case 'mkdir':
    case 'touch':
      writesOutside(splitOptions(args, new Set(['-m', '--mode', '-d', '-r', '-t', '--date', '--reference'])).operands, 'writes');
      break;
    case 'tee':
      writesOutside(splitOptions(args).operands, 'writes');
      break;
    case 'chmod':
    case 'chgrp':
      writesOutside(splitOptions(args).operands.slice(1), 'changes');
      break;
    case 'find':
      if (args.some((a) => !a.word || /^-(delete|fprint0?|fprintf|fls|ok|okdir)$/.test(a.word.text))) out.push(approve(`find writes or deletes files, or asks on the terminal: ${line(call)}`));
      break;
    case 'sed': {
      const { options, operands } = splitOptions(args, new Set(['-e', '-f', '--expression', '--file', '-l', '--line-length']));
      const inPlace = hasFlag(options, 'i', '--in-place') || options.some((o) => /^-[a-zA-Z]*i/.test(o));
      const viaE = args.filter((_a, i) => args[i - 1]?.word?.text === '-e' || args[i - 1]?.word?.text === '--expression');
      const scripts = viaE.length || options.some((o) => o === '-f' || o === '--file') ? viaE : operands.slice(0, 1);
      if (args.some((a) => !a.word) || scripts.some((a) => /(^|[;}\s\d/])([wWe]|s\/.*\/[a-zA-Z]*[we])/.test(a.word?.text ?? '')))
        out.push(approve(`sed with a script that can write files or run commands: ${line(call)}`));
      if (inPlace) writesOutside(operands.slice(options.some((o) => o === '-e' || o === '--expression' || o === '-f' || o === '--file') ? 0 : 1), 'edits in place');
      break;
    }
    case 'sort':
    case 'uniq': {
      for (let i = 0; i < args.length; i++) {
        const t = args[i]!.word?.text;
        if (t === undefined) out.push(approve(`${name} with an argument decided at run time`));
        else if (t === '-o' || t === '--output') writesOutside(args.slice(i + 1, i + 2), 'writes');
        else if (t.startsWith('--output=') || (t.startsWith('-o') && t.length > 2))
          writesOutside([{ ...args[i]!, word: { ...args[i]!.word!, text: t.replace(/^(--output=|-o)/, '') } }], 'writes');
      }
      if (name === 'uniq') {
        const ops = splitOptions(args, new Set(['-f', '-s', '-w'])).operands;
        if (ops.length >= 2) writesOutside(ops.slice(1, 2), 'writes');
      }
      break;
    }
    case 'awk':
    case 'gawk':
    case 'mawk': {
      const prog = args.find((a) => !a.word || !a.word.text.startsWith('-'));
      if (!prog?.word || /system|getline|[|>]|print[^;}]*>|-i|@load/.test(prog.word.text) || args.some((a) => a.word?.text === '-f'))
        out.push(approve(`${name} with a program that can run commands or write files: ${line(call)}`));
      break;
    }
    case 'git':
      out.push(...gitGate(call, ctx));
      break;
    default:
      break;
  }
  return out;
}

const GIT_READ = new Set(['status', 'log', 'diff', 'show', 'branch', 'tag', 'rev-parse', 'ls-files', 'blame', 'shortlog', 'describe', 'grep', 'cat-file', 'ls-tree', 'reflog', 'stash', 'add', 'commit', 'checkout', 'switch', 'restore', 'reset', 'merge', 'rebase', 'cherry-pick', 'revert', 'init', 'mv', 'rm', 'clean', 'fetch', 'pull', 'push', 'clone', 'remote', 'worktree', 'rev-list', 'merge-base', 'name-rev', 'show-ref', 'for-each-ref', 'count-objects', 'fsck', 'gc', 'notes', 'bisect', 'apply', 'am', 'format-patch', 'archive', 'version', 'help', 'check-ignore', 'ls-remote', 'whatchanged', 'range-diff']);

/** `git config …` that only reads: --get/--get-all/--get-regexp/--list (or git 2.46's get/list), and nothing that writes or opens an editor. */
function gitConfigReads(rest: string[]): boolean {
  const reads = rest[0] === 'get' || rest[0] === 'list' || rest.some((t) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(t));
  const writes = rest.some((t) => /^(--add|--replace-all|--unset|--unset-all|--rename-section|--remove-section|-e|--edit|--file|-f|--blob|set|unset|edit|rename-section|remove-section)(=|$)/.test(t) || t === '\0');
  return reads && !writes;
}

/** git: options that run programs or write outside the project, config, aliases and foreach. */
function gitGate(call: ProgramCall, ctx: GateContext): Finding[] {
  const out: Finding[] = [];
  const texts = call.args.map((a) => a.word?.text);
  let i = 0;
  let dir = call.env.cwd;
  while (i < texts.length && texts[i]?.startsWith('-')) {
    const t = texts[i]!;
    if (t === '-c' || t.startsWith('--config-env') || t === '--exec-path' || t.startsWith('--exec-path=')) out.push(approve(`git ${t} sets configuration that can run programs: ${line(call)}`));
    if ((t === '-C' || t === '--git-dir' || t === '--work-tree') && call.args[i + 1]) {
      const a = call.args[i + 1]!;
      if (outsideRoot(a, dir, ctx.root)) out.push(outside(`git works on ${a.raw}, outside the project`));
      else if (t === '-C') dir = posix.resolve(dir, a.word!.text);
    }
    if (t.startsWith('--git-dir=') || t.startsWith('--work-tree=')) out.push(approve(`git ${t}: ${line(call)}`));
    i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'].includes(t) ? 2 : 1;
  }
  const sub = texts[i];
  if (sub === undefined) return call.args[i] ? [...out, approve(`git subcommand decided at run time: ${line(call)}`)] : out;
  const rest = call.args.slice(i + 1);
  const restText = rest.map((a) => a.word?.text ?? '\0');
  // git config has its own reason (one reason, not two that contradict each other); reading it is ordinary work.
  if (sub === 'config') {
    if (!gitConfigReads(restText)) out.push(approve(`git config changes configuration that can run programs: ${line(call)}`));
  } else if (!GIT_READ.has(sub)) out.push(approve(`git ${sub} is not a subcommand the policy knows (it may be an alias that runs a program): ${line(call)}`));
  if (sub === 'remote' && restText.some((t) => /^(add|set-url)$/.test(t))) out.push(approve(`git remote changes configuration that can run programs: ${line(call)}`));
  if (sub === 'submodule' && restText.includes('foreach')) out.push(approve(`git submodule foreach runs commands: ${line(call)}`));
  if (sub === 'tag' && restText.some((t) => /^(-d|--delete)$/.test(t))) out.push(approve(`git tag -d deletes a tag: ${line(call)}`));
  if (sub === 'bisect' && restText.includes('run')) out.push(approve(`git bisect run runs commands: ${line(call)}`));
  if (sub === 'rebase' && restText.some((t) => t === '-x' || t.startsWith('--exec'))) out.push(approve(`git rebase --exec runs commands: ${line(call)}`));
  for (const t of restText) {
    if (t === '\0') out.push(approve(`git with an argument decided at run time: ${line(call)}`));
    else if (/^--(output|open-files-in-pager|upload-pack|receive-pack|exec|ext-diff|textconv|template|separate-git-dir)(=|$)/.test(t) || /^-O/.test(t) && sub === 'grep')
      out.push(approve(`git option ${t.split('=')[0]} writes files or runs programs: ${line(call)}`));
  }
  if (sub === 'push' || sub === 'pull' || sub === 'fetch' || sub === 'clone' || sub === 'ls-remote') {
    if (rest.some((a) => a.word && /^(ext::|fd::|-)/.test(a.word.text) && /::/.test(a.word.text))) out.push(approve(`git ${sub} with a transport that runs programs: ${line(call)}`));
    out.push(approve(`git ${sub} uses the network: ${line(call)}`));
  }
  for (let k = 0; k < rest.length; k++) {
    const t = restText[k]!;
    const m = /^(-o|--output|--output-directory)(=?)(.*)$/.exec(t);
    if (!m || (sub !== 'archive' && sub !== 'format-patch')) continue;
    const value: Arg | undefined = m[3] ? { ...rest[k]!, word: { text: m[3], pattern: m[3], glob: false } } : rest[k + 1];
    if (!value || outsideRoot(value, dir, ctx.root)) out.push(outside(`git ${sub} writes ${value?.raw ?? '?'}, outside the project`));
  }
  if (sub === 'clone' || sub === 'worktree' || sub === 'init' || sub === 'archive' || sub === 'format-patch') {
    const ops = splitOptions(rest, new Set(['-o', '--origin', '-b', '--branch', '--depth', '--reference', '--output', '-b'])).operands;
    for (const a of ops) if (a.word && /^[./~]/.test(a.word.text) && outsideRoot(a, dir, ctx.root)) out.push(outside(`git ${sub} writes ${a.raw}, outside the project`));
  }
  return out;
}
