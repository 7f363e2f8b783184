import { posix } from 'node:path';
import { redirections, simpleCommands, type SimpleCommand } from '../sh/commands';
import { hasParseError, loadShellParser, parseShellSync, walk, type ShellNode } from '../sh/parser';
import { evalWord, type WordEnv } from '../sh/words';
import { gate, inScratch, isInside, needsNetwork, sandboxRefusal, sensitiveInRoot, type GateContext } from './gate';
import { programCheck } from './programs';
import { existingFile, harmlessSink } from './targets';
import { VERDICT_RANK, type Arg, type Classification, type Finding, type PolicyContext, type ProgramCall } from './types';
import { programName, unwrapOnce } from './wrappers';

const MAX_DEPTH = 6;
const approve = (reason: string): Finding => ({ verdict: 'approve', reason });

const toArg = (node: ShellNode, env: WordEnv): Arg => ({ node, word: evalWord(node, env), raw: node.text });

/** What the judges share across one command line: the gate's context and what it learned. */
interface LineState extends GateContext {
  network: boolean;
}

function judgeCall(start: ProgramCall, g: LineState): Finding[] {
  const findings: Finding[] = [];
  let call: ProgramCall = start;
  for (let layer = 0; layer < 16; layer++) {
    const peeled = unwrapOnce(call);
    if (!peeled) break;
    findings.push(...peeled.findings);
    if (peeled.kind === 'done') return findings;
    call = peeled.call;
  }
  const check = programCheck(call.name);
  // What a program check finds is what the policy knows to be destructive (programs.ts), unless it said more.
  if (check) findings.push(...check(call).map((f) => (f.flag ? f : { ...f, flag: 'destructive' as const })));
  findings.push(...gate(call, call.path ?? call.name, g));
  if (needsNetwork(call)) g.network = true;
  return findings;
}

/** Assignments before a command (`PATH=. ls`, `LD_PRELOAD=x ls`) that change what runs. */
const RISKY_ASSIGNMENT = /^(PATH|LD_\w+|DYLD_\w+|NODE_OPTIONS|BASH_ENV|ENV|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|GIT_\w+|IFS|PROMPT_COMMAND|HOME)=/;

function judgeSimple(cmd: SimpleCommand, env: WordEnv, depth: number, g: LineState): Finding[] {
  const assigned = cmd.assignments.filter((a) => RISKY_ASSIGNMENT.test(a.text)).map((a) => approve(`sets ${a.text.split('=')[0]}, which changes what the command runs`));
  if (!cmd.name) return assigned;
  const name = toArg(cmd.name, env);
  if (!name.word) return [...assigned, approve(`the command name is decided at run time: ${name.raw}`)];
  const call: ProgramCall = {
    name: programName(name.word.text),
    path: name.word.text,
    args: cmd.args.map((a) => toArg(a, env)),
    cmd,
    fromStdin: false,
    env,
    nested: (source, via) => prefix(judgeSource(source, env, depth + 1, g), via),
    nestedArgv: (args, via, fromStdin) => {
      const head = args[0];
      if (!head) return [];
      if (!head.word) return [approve(`${via} runs a command decided at run time`)];
      return prefix(judgeCall({ ...call, name: programName(head.word.text), path: head.word.text, args: args.slice(1), fromStdin }, g), via);
    },
  };
  return [...assigned, ...judgeCall(call, g)];
}

/**
 * The folder the shell is in after `cd`/`pushd`/`popd` (tracked in order through the line), or null
 * when it cannot be known (a dynamic argument, `cd -`, `popd`).
 */
function nextCwd(cmd: SimpleCommand, env: WordEnv): string | null | undefined {
  const name = cmd.name?.text;
  if (name !== 'cd' && name !== 'pushd' && name !== 'popd') return undefined;
  if (name === 'popd') return null;
  const ops = cmd.args.map((a) => evalWord(a, env)).filter((w) => !w || !w.text.startsWith('-') || w.text === '-');
  const target = ops[0];
  if (ops.length === 0) return env.home;
  if (!target || target.glob || target.text === '-') return null;
  return posix.resolve(env.cwd, target.text);
}

function prefix(findings: Finding[], via: string): Finding[] {
  return findings.map((f) => ({ ...f, reason: `${f.reason} (inside ${via})` }));
}

function judgeRedirections(root: ShellNode, env: WordEnv, g: LineState, cwds: string[]): Finding[] {
  const out: Finding[] = [];
  for (const r of redirections(root)) {
    if (['>', '>>', '>|', '&>', '&>>', '>&'].includes(r.op) && r.target && !(r.op === '>&' && /^(\d+|-)$/.test(r.target.text))) {
      const w = evalWord(r.target, env);
      if (w && !w.glob && !harmlessSink(w, env) && cwds.some((c) => !isInside(g.root, posix.resolve(c, w.text)) && !inScratch(g, posix.resolve(c, w.text))))
        out.push(sandboxRefusal(g, `${r.op} writes ${r.target.text}`) ?? { ...approve(`${r.op} writes ${r.target.text}, outside the project`), flag: 'outside' });
      else if (w && cwds.some((c) => sensitiveInRoot(g.root, posix.resolve(c, w.text))))
        out.push({ ...approve(`${r.op} writes ${r.target.text}, where hooks and configuration live (they run programs later)`), flag: 'hooks' });
    }
    if (!['>', '>|', '&>', '>&', '&>|'].includes(r.op) || !r.target) continue;
    if (r.op === '>&' && /^(\d+|-)$/.test(r.target.text)) continue;
    const word = evalWord(r.target, env);
    if (!word) out.push(approve(`redirection to ${r.target.text}, a path decided at run time`));
    else if (word.glob) out.push(approve(`redirection to a glob: ${r.target.text}`));
    else if (harmlessSink(word, env)) continue;
    else if (inScratch(g, posix.resolve(env.cwd, word.text))) continue; // the command's own scratch file, overwritten or not
    else if (existingFile(word, env)) out.push({ ...approve(`${r.op} overwrites the existing file ${r.target.text}`), flag: 'destructive' });
    else if (posix.resolve(env.cwd, word.text).startsWith('/dev/')) out.push({ ...approve(`redirection writes to the device ${word.text}`), flag: 'destructive' });
  }
  return out;
}

/** Functions: a definition that calls itself in a pipeline or in the background is a fork bomb. */
function judgeFunctions(root: ShellNode): Finding[] {
  const out: Finding[] = [];
  for (const fn of walk(root)) {
    if (fn.type !== 'function_definition') continue;
    const name = fn.childForFieldName('name')?.text ?? '';
    const body = fn.childForFieldName('body');
    const calls = body ? simpleCommands(body).filter((c) => c.name?.text === name) : [];
    const spawning = body ? [...walk(body)].some((n) => n.type === 'pipeline' || n.type === '&') : false;
    if (calls.length > 0 && spawning) out.push({ verdict: 'refuse', reason: `fork bomb: the function ${name} starts copies of itself` });
    else out.push(approve(`defines the shell function ${name}, whose later use cannot be checked`));
  }
  return out;
}

function judgeTree(root: ShellNode, env: WordEnv, depth: number, g: LineState): Finding[] {
  if (depth > MAX_DEPTH) return [approve('commands nested too deeply to check')];
  if (hasParseError(root)) return [approve('the command line could not be fully parsed')];
  const out: Finding[] = [];
  let cur: WordEnv = env;
  const cwds = [env.cwd];
  let lost = false;
  for (const cmd of simpleCommands(root)) {
    if (lost) out.push(approve(`${cmd.name?.text ?? 'a command'} runs after a change of folder that cannot be known before it runs`));
    out.push(...judgeSimple(cmd, cur, depth, g));
    const next = nextCwd(cmd, cur);
    if (next === null) lost = true;
    else if (next !== undefined) {
      cur = { ...cur, cwd: next };
      cwds.push(next);
    }
  }
  for (const n of walk(root)) {
    if (n.type === 'variable_assignment' && RISKY_ASSIGNMENT.test(n.text)) out.push(approve(`sets ${n.text.split('=')[0]}, which changes what later commands run`));
    else if (n.type === 'declaration_command' || n.type === 'unset_command') out.push(approve(`${n.text.split(/\s/)[0]} changes variables later commands depend on: ${n.text.slice(0, 80)}`));
  }
  out.push(...judgeRedirections(root, cur, g, cwds));
  out.push(...judgeFunctions(root));
  return out;
}

function judgeSource(source: string, env: WordEnv, depth: number, g: LineState): Finding[] {
  const tree = parseShellSync(source);
  try {
    return judgeTree(tree.rootNode, env, depth, g);
  } finally {
    tree.delete();
  }
}

function conclude(findings: Finding[], ctx: PolicyContext, network: boolean): Classification {
  const adjusted = findings.map((f) =>
    f.verdict === 'refuse' && ctx.allowDangerous
      ? { verdict: 'approve' as const, reason: `WARNING: allowed only because dangerous commands are enabled in settings: ${f.reason}`, flag: 'destructive' as const }
      : f,
  );
  const verdict = adjusted.reduce<Classification['verdict']>((v, f) => (VERDICT_RANK[f.verdict] > VERDICT_RANK[v] ? f.verdict : v), 'run');
  const reasons = [...new Set(adjusted.filter((f) => f.verdict !== 'run').sort((a, b) => VERDICT_RANK[b.verdict] - VERDICT_RANK[a.verdict]).map((f) => f.reason))];
  const askEachTime = verdict === 'approve' && adjusted.some((f) => f.verdict === 'approve' && f.flag !== undefined);
  return { verdict, reasons, network, askEachTime };
}

/** Synchronous classification; the parser must be loaded (await loadShellParser() once). */
export function classifyCommandSync(command: string, ctx: PolicyContext): Classification {
  const tmpDir = ctx.tmpDir ? posix.resolve(ctx.tmpDir) : undefined;
  const env: WordEnv = { home: posix.resolve(ctx.home), cwd: posix.resolve(ctx.cwd), ...(tmpDir ? { tmpDir } : {}) };
  const g: LineState = { root: posix.resolve(ctx.root ?? ctx.cwd), sandboxed: ctx.sandboxed === true, ...(tmpDir ? { tmpDir } : {}), network: false };
  const findings = judgeSource(command, env, 0, g);
  return conclude(findings, ctx, g.network);
}

/**
 * Classifies a shell command line on a real parse: `run` only for what is understood (gate.ts: a
 * short allow-list, writes inside the project, build tools inside the sandbox), `approve` for
 * everything else (destructive, outside the project, inline code, the network, anything the parser
 * cannot understand), `refuse` for removing `/`, `/home`, `/root`, the home folder or anything
 * directly inside them. `cd`/`pushd` are followed through the line.
 */
export async function classifyCommand(command: string, ctx: PolicyContext): Promise<Classification> {
  await loadShellParser();
  return classifyCommandSync(command, ctx);
}
