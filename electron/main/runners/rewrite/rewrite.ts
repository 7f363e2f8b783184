import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { simpleCommands, type SimpleCommand } from '../sh/commands';
import { hasParseError, loadShellParser, parseShellSync } from '../sh/parser';
import { evalWord } from '../sh/words';
import { lockfileTools } from './lockfiles';
import { REWRITE_RULES, type RuleId, type RuleInput, type Token } from './rules';

export interface RewriteContext {
  /** The project root (pyproject.toml there turns pip installs into uv sync / uv add). */
  root: string;
  /** Rules switched off in settings. */
  disabled?: ReadonlySet<RuleId>;
  /**
   * Whether a tool is installed. A rule whose result starts with a missing tool (no `uv`, no
   * `pnpm`) is skipped, so a working command is never rewritten into one that cannot run.
   * Omitted: every rule applies.
   */
  available?: (tool: string) => boolean;
  /** The tools the project's lockfiles name (default: read from the root); a rule rewrites only toward one of them. */
  lockTools?: ReadonlySet<string>;
}

export interface AppliedRewrite {
  rule: RuleId;
  from: string;
  to: string;
}

export interface RewriteResult {
  /** The command line that actually runs. */
  command: string;
  applied: AppliedRewrite[];
  /** Rules that matched but were not applied (their tool is missing, or the project's lockfile names another). */
  skipped?: Array<{ rule: RuleId; reason: string }>;
}

const NO_ENV = { home: '\0no-home', cwd: '/' };

function staticText(node: SimpleCommand['args'][number]): string | null {
  const w = evalWord(node, NO_ENV);
  return w && !w.glob ? w.text : node.type === 'word' ? node.text : null;
}

/** The single-file script a command line runs (`python x.py`, `uv run x.py`), if any. */
function findScript(cmds: SimpleCommand[]): string | null {
  for (const c of cmds) {
    const name = c.name ? staticText(c.name) : null;
    const args = c.args.map(staticText);
    const file = name === 'python' || name === 'python3' ? args[0] : name === 'uv' && args[0] === 'run' ? args[1] : null;
    if (file && /\.py$/.test(file)) return file;
  }
  return null;
}

function render(tokens: Token[], cmd: SimpleCommand): string {
  return tokens.map((t) => (typeof t === 'number' ? (cmd.args[t]?.text ?? '') : t)).join(' ');
}

/** Synchronous rewriting; the parser must be loaded (await loadShellParser() once). */
export function rewriteCommandSync(command: string, ctx: RewriteContext): RewriteResult {
  const tree = parseShellSync(command);
  try {
    if (hasParseError(tree.rootNode)) return { command, applied: [] };
    const cmds = simpleCommands(tree.rootNode);
    const script = findScript(cmds);
    const lock = ctx.lockTools ?? lockfileTools(ctx.root);
    const edits: Array<{ start: number; end: number; applied: AppliedRewrite }> = [];
    const skipped: Array<{ rule: RuleId; reason: string }> = [];
    for (const cmd of cmds) {
      if (!cmd.name) continue;
      const name = staticText(cmd.name);
      if (name === null) continue;
      // Only rewrite when the command's children are exactly name and arguments (redirections stay outside).
      const last = cmd.args[cmd.args.length - 1] ?? cmd.name;
      const input: RuleInput = { name, args: cmd.args.map(staticText), root: ctx.root, script };
      for (const rule of REWRITE_RULES) {
        if (ctx.disabled?.has(rule.id)) continue;
        const tokens = rule.rewrite(input);
        if (!tokens) continue;
        const tool = tokens[0];
        if (typeof tool === 'string' && !lock.has(tool)) {
          skipped.push({ rule: rule.id, reason: `the project's lockfile does not name ${tool}` });
          break;
        }
        if (typeof tool === 'string' && ctx.available && !ctx.available(tool)) {
          skipped.push({ rule: rule.id, reason: `${tool} is not installed` });
          break;
        }
        const from = command.slice(cmd.name.startIndex, last.endIndex);
        const to = render(tokens, cmd);
        if (from !== to) edits.push({ start: cmd.name.startIndex, end: last.endIndex, applied: { rule: rule.id, from, to } });
        break;
      }
    }
    let out = command;
    for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.applied.to + out.slice(e.end);
    return { command: out, applied: edits.map((e) => e.applied), ...(skipped.length ? { skipped } : {}) };
  } finally {
    tree.delete();
  }
}

/**
 * Rewrites a command line to the project's own tools (python → uv run, pip → uv where uv.lock is at
 * the root; npm → pnpm, npx → pnpm dlx where pnpm-lock.yaml is), per simple command inside chains and pipelines, never inside quoted strings.
 * `applied` lists every change, so the caller can always say what actually ran.
 */
export async function rewriteCommand(command: string, ctx: RewriteContext): Promise<RewriteResult> {
  await loadShellParser();
  return rewriteCommandSync(command, ctx);
}

const pathCache = new Map<string, boolean>();

/** Whether `tool` is an executable on PATH (cached per process). */
export function onPath(tool: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const key = `${env.PATH ?? ''}\0${tool}`;
  let found = pathCache.get(key);
  if (found === undefined) {
    found = (env.PATH ?? '').split(delimiter).some((dir) => {
      if (!dir) return false;
      try {
        accessSync(join(dir, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    pathCache.set(key, found);
  }
  return found;
}
