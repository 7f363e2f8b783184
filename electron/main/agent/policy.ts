import type { AgentTool } from './tools';

/** Matches electron/main/runners/policy: `classifyCommand(cmd, opts) → {verdict, reasons}`. */
export type CommandClassifier = (command: string, opts: { cwd?: string }) => { verdict: 'run' | 'approve' | 'refuse'; reasons: string[] } | Promise<{ verdict: 'run' | 'approve' | 'refuse'; reasons: string[] }>;

export type Verdict = 'allow' | 'approve' | 'refuse';
export interface PolicyDecision {
  verdict: Verdict;
  reasons: string[];
}

export interface PolicyOptions {
  /** Approve whatever is not refused (`--yes`). */
  autoApprove?: boolean;
  /** Approvals policy `ask`: calls that tools or the command policy deem safe but not read-only still ask. */
  askAll?: boolean;
  classifyCommand?: CommandClassifier;
  /** Tool names refused outright. */
  refuse?: string[];
  /** Tools refused in this session, by their server's name for them (e.g. `git_commit`), each with why and what to do instead. */
  withhold?: Readonly<Record<string, string>>;
  cwd?: string;
}

const hintsOf = (tool: AgentTool) => tool.annotations ?? {};

/** Argument names that carry a shell command line (the runners' tools). */
const COMMAND_ARGS = ['command', 'cmd', 'commandLine'];

/**
 * Decides each call: allowed, needs approval, or refused — from the tool's annotations, the
 * server's alwaysAllow, the user's choices in this session, and the command classifier.
 */
export class ToolPolicy {
  private readonly always = new Set<string>();

  constructor(private readonly opts: PolicyOptions = {}) {}

  /** "always allow" chosen by the user: later calls of this tool need no approval. */
  rememberAlways(toolName: string): void {
    this.always.add(toolName);
  }

  async decideTool(tool: AgentTool, args: Record<string, unknown>): Promise<PolicyDecision> {
    if (this.opts.refuse?.includes(tool.name)) return { verdict: 'refuse', reasons: [`${tool.name} is refused by the session's policy`] };
    const withheld = this.opts.withhold && Object.hasOwn(this.opts.withhold, tool.tool) ? this.opts.withhold[tool.tool] : undefined;
    if (withheld) return { verdict: 'refuse', reasons: [withheld] };
    const commandArg = COMMAND_ARGS.find((k) => typeof args[k] === 'string');
    if (commandArg && this.opts.classifyCommand) {
      const command = String(args[commandArg]);
      const c = await this.decideCommand(command);
      // A server on alwaysAllow that takes command lines (Erasmus's runners) asks for its own approval,
      // with the command as it will really run after rewriting: one question, not two. Refusals stand.
      if (c.verdict === 'refuse' || (c.verdict === 'approve' && !tool.alwaysAllow)) return c;
      // Under "ask" the user wants every command put to them: the server asks only where its own
      // policy needs the user, so a command it would run unasked is asked here (once).
      if (tool.alwaysAllow && c.verdict === 'approve' && this.opts.askAll && !this.always.has(tool.name)) {
        const own = await this.opts.classifyCommand(command, { cwd: this.opts.cwd });
        if (own.verdict === 'run') return c;
      }
    }
    // alwaysAllow waives the hint-based question, not the user's "ask for everything".
    if (tool.alwaysAllow && !(this.opts.askAll && hintsOf(tool).readOnlyHint !== true && !this.always.has(tool.name) && !commandArg)) {
      return { verdict: 'allow', reasons: [`the server's alwaysAllow lists ${tool.tool}`] };
    }
    if (this.always.has(tool.name)) return { verdict: 'allow', reasons: ['always allowed in this session'] };
    const a = tool.annotations ?? {};
    let d: PolicyDecision;
    if (a.readOnlyHint === true) d = { verdict: 'allow', reasons: ['read-only tool'] };
    else if (a.destructiveHint === false) d = this.opts.askAll ? { verdict: 'approve', reasons: ['non-destructive tool; the approvals policy "ask" asks anyway'] } : { verdict: 'allow', reasons: ['non-destructive tool'] };
    else d = { verdict: 'approve', reasons: [a.destructiveHint ? 'the tool says it is destructive' : 'the tool may modify things (no read-only or non-destructive hint)'] };
    return this.autoApprove(d);
  }

  async decideCommand(command: string): Promise<PolicyDecision> {
    if (this.always.has(`!${command}`)) return { verdict: 'allow', reasons: ['always allowed in this session'] };
    if (!this.opts.classifyCommand) return this.autoApprove({ verdict: 'approve', reasons: ['shell commands need approval (no command policy configured)'] });
    const r = await this.opts.classifyCommand(command, { cwd: this.opts.cwd });
    const d: PolicyDecision =
      r.verdict === 'run' && this.opts.askAll ? { verdict: 'approve', reasons: [...r.reasons, 'the approvals policy "ask" asks for every command'] } : { verdict: r.verdict === 'run' ? 'allow' : r.verdict, reasons: r.reasons };
    return this.autoApprove(d);
  }

  private autoApprove(d: PolicyDecision): PolicyDecision {
    if (d.verdict === 'approve' && this.opts.autoApprove) return { verdict: 'allow', reasons: [...d.reasons, 'approved by --yes'] };
    return d;
  }
}
