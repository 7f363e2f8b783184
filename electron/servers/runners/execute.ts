import { resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationApproval } from '../../contract/index';
import { NOBODY_ASKED } from '../../main/agent/approval-path';
import { classifyCommand } from '../../main/runners/policy/index';
import type { RunResult } from '../../main/runners/pty/index';
import type { CommandRunner, ProjectAccess } from '../../main/runners/runner';
import { onPath, rewriteCommand, type AppliedRewrite } from '../../main/runners/rewrite/index';
import type { ScriptReviewer } from '../../main/runners/review/index';
import { hostsToOffer } from '../../main/runners/network-hosts';
import { disabledRules, type RunnerSettings } from '../../main/runners/settings';
import type { RunnerTool } from './tool';
import { missingToolchainText, toolchainAvailable } from './toolchains';

/** What the user answered to a confirmation; `unsupported` when the client cannot ask (no elicitation). */
export type Confirmation = 'accept' | 'decline' | 'cancel' | 'unsupported' | { unanswered: string };

export interface RunnerDeps {
  /** Where commands run and what the policy calls the project (a parallel run's worktree, or the project). */
  root: string;
  /** The folder the sandbox lets commands write, when it is not `root` (the project holding a worktree). */
  sandboxRoot?: string;
  home: string;
  /** The one runner (runners/runner.ts): the OS sandbox, the session's TMPDIR, a PTY in the terminal view. */
  runner: Pick<CommandRunner, 'run' | 'status'> & Partial<Pick<CommandRunner, 'tmpDir'>>;
  reviewer?: ScriptReviewer;
  settings: () => Promise<RunnerSettings>;
  confirm: (message: string, signal?: AbortSignal, approval?: ElicitationApproval) => Promise<Confirmation>;
  /**
   * Told what the call is doing now, in the words of RUNNER_DOING (sent to the client as progress: a face shows what a long
   * call waits for); `now` false: with the next keep-alive only.
   */
  doing?: (words: string, now?: boolean) => void;
}

/** What a runner call is doing, as its progress says it (`RunnerDeps.doing`). */
export const RUNNER_DOING = { review: 'the script reviewer reads it', approval: "waiting for the user's answer", running: 'running' } as const;

/** What a call did, for clients that read structured results (the app's tool cards). */
export interface RunnerOutcome {
  tool: string;
  status: 'ran' | 'refused' | 'declined' | 'rejected-by-review' | 'failed';
  requested?: string;
  command?: string;
  rewrites: AppliedRewrite[];
  reasons: string[];
  reviewed: boolean;
  run?: Omit<RunResult, 'output'>;
}

function result(outcome: RunnerOutcome, text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: { ...outcome }, isError };
}

function describeRewrites(requested: string, applied: AppliedRewrite[]): string {
  if (!applied.length) return '';
  return `(rewritten from: ${requested}; ${applied.map((a) => `${a.rule}: ${a.from} → ${a.to}`).join('; ')})\n`;
}

function describeRun(r: RunResult): string {
  if (r.background) return `still running in the background after ${Math.round(r.durationMs / 1000)} s (terminal ${r.terminalId}); its output grows in ${r.rawOutputFile}`;
  if (r.timedOut) return `stopped after its timeout (${Math.round(r.durationMs / 1000)} s), with its whole process tree`;
  if (r.aborted) return 'stopped: the call was cancelled';
  if (r.exitCode === null) return `ended by signal ${r.signal ?? '?'}`;
  return `exit code ${r.exitCode}`;
}

/**
 * A step that must not write the project (design, review, documentation) runs its commands with the
 * project mounted read-only; without a sandbox nothing can mount it so, and only commands the
 * policy knows to be read-only run. Undefined: the command may run.
 */
export function readOnlyStepRefusal(access: ProjectAccess, sandboxed: boolean, verdict: 'run' | 'approve' | 'refuse', why: string): string | undefined {
  if (access === 'write' || sandboxed || verdict === 'run') return undefined;
  return `this step only reads the project, and commands run without a sandbox here (${why}), so only commands known to be read-only run (ls, cat, grep, git status, git diff…); report what should be run instead`;
}

/**
 * One runner tool call: plan → rewrite → policy (refuse / ask the user / run) → script review →
 * PTY → result. Every refusal, decline and rejection comes back as the tool's (error) result.
 */
export async function executeTool(tool: RunnerTool, args: Record<string, unknown>, deps: RunnerDeps, signal?: AbortSignal, access: ProjectAccess = 'write'): Promise<CallToolResult> {
  const outcome: RunnerOutcome = { tool: tool.name, status: 'failed', rewrites: [], reasons: [], reviewed: false };
  let settings: RunnerSettings;
  let requested: string;
  let plan;
  if (!toolchainAvailable(tool.toolset)) {
    outcome.status = 'refused';
    outcome.reasons = [missingToolchainText(tool.toolset)];
    return result(outcome, outcome.reasons[0]!, true);
  }
  try {
    settings = await deps.settings();
    plan = await tool.plan(args, { root: deps.root });
    requested = plan.command;
  } catch (err) {
    outcome.reasons = [(err as Error).message];
    return result(outcome, `Not run: ${(err as Error).message}`, true);
  }
  const rewritten = await rewriteCommand(requested, { root: deps.root, disabled: disabledRules(settings), available: (tool) => onPath(tool) });
  const command = rewritten.command;
  Object.assign(outcome, { requested, command, rewrites: rewritten.applied });
  // The result carries the command's own output; Erasmus adds a line only where it changed the command.
  const header = `$ ${command}\n${describeRewrites(requested, rewritten.applied)}`;

  const box = deps.runner.status;
  const sandboxed = box.enabled;
  // The folder the command gets as $TMPDIR (the runner's, by the root it runs in): the place the model is told to keep scratch files.
  const tmpDir = deps.runner.tmpDir?.(resolve(deps.sandboxRoot ?? deps.root));
  const policy = await classifyCommand(command, { home: deps.home, cwd: deps.root, root: deps.root, sandboxed, ...(tmpDir ? { tmpDir } : {}), allowDangerous: settings.allowDangerous });
  outcome.reasons = policy.reasons;
  if (policy.verdict === 'refuse') {
    outcome.status = 'refused';
    return result(outcome, `${header}Refused, not run: ${policy.reasons.join('; ')}`, true);
  }
  const readOnlyRefusal = readOnlyStepRefusal(access, sandboxed, policy.verdict, box.detail);
  if (readOnlyRefusal) {
    outcome.status = 'refused';
    outcome.reasons = [readOnlyRefusal];
    return result(outcome, `${header}Refused, not run: ${readOnlyRefusal}`, true);
  }

  const given = typeof args.purpose === 'string' && args.purpose ? args.purpose : undefined;
  // The reviewer needs some purpose; the person is shown only one the model gave (the tool's description is not one).
  const purpose = given ?? tool.description;
  let reviewNote = '';
  if (plan.review && settings.review) {
    if (deps.reviewer) {
      deps.doing?.(RUNNER_DOING.review);
      const verdict = await deps.reviewer.review({ purpose, script: plan.review.script, kind: plan.review.kind }, signal);
      outcome.reviewed = true;
      if (verdict.verdict === 'reject') {
        outcome.status = 'rejected-by-review';
        outcome.reasons = verdict.reasons;
        return result(outcome, `${header}The script review rejected this ${plan.review.kind === 'dockerfile' ? 'Dockerfile' : plan.review.kind === 'git' ? 'git command' : 'script'}; not run.\nReasons:\n${verdict.reasons.map((r) => `- ${r}`).join('\n')}`, true);
      }
    } else {
      reviewNote = '(not reviewed: no script reviewer is configured for this server)\n';
    }
  }

  const networked = policy.verdict === 'approve' && policy.network;
  if (policy.verdict === 'approve') {
    const allowed = settings.network.allowedHosts;
    const offer = networked && sandboxed ? hostsToOffer(command, allowed).slice(0, 20) : []; // the approval carries at most 20
    const where = sandboxed
      ? `It runs in the sandbox: it can write only in ${deps.root} and its own temporary folder ($TMPDIR); a write anywhere else fails, approved or not; ${
          policy.network ? `if you accept, its network reaches only this project's allowed hosts (${allowed.length ? allowed.join(', ') : 'none yet'}), through Erasmus's proxy` : 'no network'
        }.`
      : `It runs WITHOUT a sandbox (${box.detail}).`;
    const hostsLine = offer.length ? `\nHosts it names that the project does not allow: ${offer.join(', ')} (the proxy refuses them unless allowed: answering this approval, "Allow <host>" on the app's card or h (all of them) or h1, h2… (one) on a terminal; or in the app's Settings → Allowed hosts, or "runners": {"network": {"allowedHosts": [...]}} in .erasmus/settings.json).` : '';
    const message = `Run this command in ${deps.root}?\n\n  ${command}\n\n${rewritten.applied.length ? `Rewritten from: ${requested}\n` : ''}Why it needs your approval: ${policy.reasons.join('; ')}\n${where}${hostsLine}${given ? `\nPurpose: ${given}` : ''}`;
    const approval: ElicitationApproval = {
      tool: tool.name,
      action: `Run ${command.split('\n')[0]!.slice(0, 200)}`,
      change: 'command',
      command,
      ...(rewritten.applied.length ? { original: requested } : {}),
      cwd: deps.root,
      sandbox: where,
      reasons: policy.reasons,
      ...(offer.length ? { hosts: offer } : {}),
      // Only a command the sandbox confines, with no network, nothing destructive and nothing outside the project, may be
      // always allowed; the others are asked each time (and an "always allow" given on another card never answers them).
      ...(sandboxed && !policy.network && !policy.askEachTime ? { grant: 'commands.sandboxed' as const } : {}),
    };
    deps.doing?.(RUNNER_DOING.approval);
    const answer = await deps.confirm(message, signal, approval);
    if (answer !== 'accept') {
      outcome.status = 'declined';
      const why =
        typeof answer === 'object'
          ? `it ${NOBODY_ASKED} (${answer.unanswered})`
          : answer === 'unsupported'
            ? `it ${NOBODY_ASKED} (this MCP client cannot ask: it does not support elicitation)`
            : `the user ${answer === 'cancel' ? 'dismissed' : 'declined'} the approval`;
      return result(outcome, `${header}Not run: ${why}. Approval was needed because: ${policy.reasons.join('; ')}`, true);
    }
  }

  const timeout = typeof args.timeout_seconds === 'number' ? args.timeout_seconds * 1000 : undefined;
  const onTimeout = args.on_timeout === 'background' ? 'background' : 'kill';
  let run: Awaited<ReturnType<RunnerDeps['runner']['run']>>;
  try {
    // Read again: the approval card may have just allowed a host.
    const allowedHosts = networked ? (await deps.settings()).network.allowedHosts : [];
    // Straight to running (nothing reviewed or asked before): said with the next keep-alive, no extra progress for a quick command.
    deps.doing?.(RUNNER_DOING.running, outcome.reviewed || policy.verdict === 'approve');
    run = await deps.runner.run({ command, root: deps.sandboxRoot ?? deps.root, cwd: deps.root, access, network: networked, allowedHosts, title: `${tool.name}: ${command.split('\n')[0]!.slice(0, 60)}`, timeoutMs: timeout, onTimeout, signal });
  } catch (err) {
    outcome.reasons = [(err as Error).message];
    return result(outcome, `${header}Could not start: ${(err as Error).message}`, true);
  }
  outcome.status = 'ran';
  const { output, sandboxNote, sandboxed: _s, tmpDir: _t, ...rest } = run;
  outcome.run = rest;
  const failed = !run.background && (run.timedOut || run.aborted || run.exitCode !== 0);
  return result(outcome, `${header}${reviewNote}[${describeRun(run)}]\n${output}${sandboxNote ? `\n${sandboxNote}` : ''}`, failed);
}
