import { posix } from 'node:path';
import { redirections, simpleCommands, type SimpleCommand } from '../sh/commands';
import { hasParseError, loadShellParser, parseShellSync, walk, type ShellNode } from '../sh/parser';
import { evalWord, type WordEnv } from '../sh/words';
import { programCheck } from './programs';
import { existingFile, harmlessSink } from './targets';
import { VERDICT_RANK, type Arg, type Classification, type Finding, type PolicyContext, type ProgramCall } from './types';
import { programName, unwrapOnce } from './wrappers';

const MAX_DEPTH = 6;
const approve = (reason: string): Finding => ({ verdict: 'approve', reason });

const toArg = (node: ShellNode, env: WordEnv): Arg => ({ node, word: evalWord(node, env), raw: node.text });

function judgeCall(start: ProgramCall): Finding[] {
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
  if (check) findings.push(...check(call));
  return findings;
}

function judgeSimple(cmd: SimpleCommand, env: WordEnv, depth: number): Finding[] {
  if (!cmd.name) return [];
  const name = toArg(cmd.name, env);
  if (!name.word) return [approve(`the command name is decided at run time: ${name.raw}`)];
  const call: ProgramCall = {
    name: programName(name.word.text),
    args: cmd.args.map((a) => toArg(a, env)),
    cmd,
    fromStdin: false,
    env,
    nested: (source, via) => prefix(judgeSource(source, env, depth + 1), via),
    nestedArgv: (args, via, fromStdin) => {
      const head = args[0];
      if (!head) return [];
      if (!head.word) return [approve(`${via} runs a command decided at run time`)];
      return prefix(judgeCall({ ...call, name: programName(head.word.text), args: args.slice(1), fromStdin }), via);
    },
  };
  return judgeCall(call);
}

function prefix(findings: Finding[], via: string): Finding[] {
  return findings.map((f) => ({ ...f, reason: `${f.reason} (inside ${via})` }));
}

function judgeRedirections(root: ShellNode, env: WordEnv): Finding[] {
  const out: Finding[] = [];
  for (const r of redirections(root)) {
    if (!['>', '>|', '&>', '>&', '&>|'].includes(r.op) || !r.target) continue;
    if (r.op === '>&' && /^(\d+|-)$/.test(r.target.text)) continue;
    const word = evalWord(r.target, env);
    if (!word) out.push(approve(`redirection to ${r.target.text}, a path decided at run time`));
    else if (word.glob) out.push(approve(`redirection to a glob: ${r.target.text}`));
    else if (harmlessSink(word, env)) continue;
    else if (existingFile(word, env)) out.push(approve(`${r.op} overwrites the existing file ${r.target.text}`));
    else if (posix.resolve(env.cwd, word.text).startsWith('/dev/')) out.push(approve(`redirection writes to the device ${word.text}`));
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

function judgeTree(root: ShellNode, env: WordEnv, depth: number): Finding[] {
  if (depth > MAX_DEPTH) return [approve('commands nested too deeply to check')];
  if (hasParseError(root)) return [approve('the command line could not be fully parsed')];
  const out: Finding[] = [];
  for (const cmd of simpleCommands(root)) out.push(...judgeSimple(cmd, env, depth));
  out.push(...judgeRedirections(root, env));
  out.push(...judgeFunctions(root));
  return out;
}

function judgeSource(source: string, env: WordEnv, depth: number): Finding[] {
  const tree = parseShellSync(source);
  try {
    return judgeTree(tree.rootNode, env, depth);
  } finally {
    tree.delete();
  }
}

function conclude(findings: Finding[], ctx: PolicyContext): Classification {
  const adjusted = findings.map((f) =>
    f.verdict === 'refuse' && ctx.allowDangerous
      ? { verdict: 'approve' as const, reason: `WARNING: allowed only because dangerous commands are enabled in settings: ${f.reason}` }
      : f,
  );
  const verdict = adjusted.reduce<Classification['verdict']>((v, f) => (VERDICT_RANK[f.verdict] > VERDICT_RANK[v] ? f.verdict : v), 'run');
  const reasons = [...new Set(adjusted.filter((f) => f.verdict !== 'run').sort((a, b) => VERDICT_RANK[b.verdict] - VERDICT_RANK[a.verdict]).map((f) => f.reason))];
  return { verdict, reasons };
}

/** Synchronous classification; the parser must be loaded (await loadShellParser() once). */
export function classifyCommandSync(command: string, ctx: PolicyContext): Classification {
  const env: WordEnv = { home: posix.resolve(ctx.home), cwd: posix.resolve(ctx.cwd) };
  return conclude(judgeSource(command, env, 0), ctx);
}

/**
 * Classifies a shell command line on a real parse: `run` for commands that destroy nothing,
 * `approve` for destructive ones and for anything the parser cannot understand, `refuse` for
 * removing `/`, `/home`, `/root`, the home folder or anything directly inside them.
 */
export async function classifyCommand(command: string, ctx: PolicyContext): Promise<Classification> {
  await loadShellParser();
  return classifyCommandSync(command, ctx);
}
