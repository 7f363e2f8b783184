// The CLI's side of the one approval path (electron/main/agent/approval-path.ts): `--yes`, a terminal
// to ask on, or nobody (`--json` without `--yes`, no TTY) — for the agent's approvals and the hub's
// elicitations alike. Every command that runs agent sessions or workflows uses it.
import { APPROVAL_META, ElicitationApproval, type ApprovalDecision } from '../contract/index';
import { humanState } from '../contract/words';
import { approvalPath, type ApprovalPath } from '../main/agent/approval-path';
import type { ApprovalRequester } from '../main/agent/approvals';
import { withAlwaysAllow, type GrantDeps } from '../main/mcp/elicitation';
import type { McpHub } from '../main/mcp/hub';
import type { ElicitationHandler, ElicitationRequest } from '../main/mcp/types';
import { elicitOnTerminal, questionLabel, type AlwaysOffer, type HostsOffer } from './commands/mcp-elicit';
import { ask, sayWhileAsking } from './prompt';

let turn: Promise<unknown> = Promise.resolve();
/** Questions asked or waiting their turn. */
let inLine = 0;

/**
 * One question on the terminal at a time: a parallel run has several steps in flight, and two prompts at once
 * would take each other's answers. The next waits until the one before is answered; meanwhile the terminal says
 * it waits (`what`: whose question it is), above the open question, so the person knows one more comes.
 */
export function oneAtATime<T>(question: () => Promise<T>, what?: string): Promise<T> {
  const unsay = inLine++ > 0 ? sayWhileAsking(`    one more question waits until this one is answered${what ? `: ${what}` : ''}`) : undefined;
  // Its turn came: a notice of it not said yet is not said now.
  const start = () => {
    unsay?.();
    return question();
  };
  const mine = turn.then(start, start).finally(() => void inLine--);
  turn = mine.catch(() => undefined);
  return mine;
}

/** Approvals at the terminal prompt (interactive use), naming the workflow step that asks (`b · development`). */
export const terminalApprovals: ApprovalRequester = (req) =>
  oneAtATime(async () => {
    const from = req.step ? ` (step ${humanState(req.step)})` : '';
    process.stderr.write(`\napproval needed${from}: ${req.kind} ${req.name} ${JSON.stringify(req.args).slice(0, 400)}\n  because: ${req.reasons.join('; ')}\n`);
    for (;;) {
      const a = (await ask(`${req.step ? `${humanState(req.step)}: ` : ''}allow once [y], always allow [a], deny [n]? `)).trim().toLowerCase();
      const d: ApprovalDecision | undefined = a === 'y' || a === 'yes' ? 'allow_once' : a === 'a' || a === 'always' ? 'always_allow' : a === 'n' || a === 'no' || a === '' ? 'deny' : undefined;
      if (d) return d;
    }
  }, req.step ? `${humanState(req.step)}: ${req.kind} ${req.name}` : undefined);

export interface CliApprovalOptions {
  /** `--yes` was given. */
  yes?: boolean;
  /** `--json`: stdout carries events, so nobody is asked on the terminal. */
  json?: boolean;
  /** The command, for the recovery hint, e.g. "erasmus chat". */
  command: string;
  /** Whether a person is at the terminal (default: stdin is a TTY). */
  tty?: boolean;
  /** The command has a --yes flag (default true); the recovery hint mentions it only then. */
  hasYes?: boolean;
  /** Why nobody can be asked, in place of the default hint for the user (e.g. words for a model that must go on alone). */
  nobodyBecause?: string;
  /** "Always allow" (the core's kept answers, `grantDepsOf`): honoured, and offered on the terminal as on the app's card. */
  grants?: GrantDeps;
  /**
   * "Allow <host>" on the approval of a command that needs the network (Erasmus's own runners, `grants.builtin`), as on the
   * app's card: adds the hosts to the project's allowed hosts (the core's settings.runners.set) before the yes goes back.
   */
  allowHosts?: (project: string, hosts: string[]) => Promise<unknown>;
}

/** What the terminal may offer for a question's hosts: an approval of Erasmus's own runners that names hosts the project does not allow. */
function hostsOffer(req: ElicitationRequest, o: CliApprovalOptions): HostsOffer | undefined {
  if (!o.allowHosts || !o.grants?.builtin(req.server)) return undefined;
  const approval = ElicitationApproval.safeParse((req.params as { _meta?: Record<string, unknown> })._meta?.[APPROVAL_META]);
  if (!approval.success || !approval.data.hosts?.length || !approval.data.cwd) return undefined;
  return { hosts: approval.data.hosts, project: approval.data.cwd, add: o.allowHosts };
}

/** A kept "always allow" answered a question: the terminal is told, in the card's words. */
function sayGranted(g: { server: string; message: string; action?: string; words: string }): void {
  process.stderr.write(`\nAllowed without asking: ${g.action ?? g.message} (you chose “${g.words}”)\n`);
}

/** The approval path of a CLI command, from its flags and the terminal. */
export function cliApprovalPath(o: CliApprovalOptions): ApprovalPath {
  const tty = o.tty ?? process.stdin.isTTY === true;
  const canAsk = tty && !o.json;
  const hasYes = o.hasYes ?? true;
  const nobodyBecause = o.nobodyBecause ?? (hasYes
    ? `${o.command} runs ${o.json ? 'with --json' : 'without a terminal'} and without --yes; run it again with --yes to approve, or in a terminal to be asked`
    : `${o.command} runs ${o.json ? 'with --json' : 'without a terminal'}; run it in a terminal to be asked`);
  // One question at a time on the terminal (two components in flight never prompt at once); kept answers first,
  // read when the question's turn comes (an "always allow" given to the question before it covers it then).
  // The offer of "always allow" (from withAlwaysAllow) goes on to the prompt, which shows its letters.
  const onTerminal = (req: ElicitationRequest, signal: AbortSignal, offer?: AlwaysOffer) => elicitOnTerminal(req, signal, offer, hostsOffer(req, o));
  const checked: ElicitationHandler = o.grants ? withAlwaysAllow(o.grants, onTerminal, sayGranted) : onTerminal;
  const elicitation: ElicitationHandler = (req, signal) => oneAtATime(() => checked(req, signal), questionLabel(req) && `${req.server} asks for ${questionLabel(req)}`);
  return approvalPath({ yes: o.yes, nobodyBecause, ...(canAsk ? { asker: { approval: terminalApprovals, elicitation } } : {}) });
}

/** Routes the hub's elicitations (the built-in servers' confirmations) through the path. */
export function installApprovalPath(hub: Pick<McpHub, 'setElicitationHandler'>, path: ApprovalPath): void {
  hub.setElicitationHandler(path.elicitation);
}
