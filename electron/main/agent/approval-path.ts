// One approval path for every face: the agent's own approvals (policy → approval_required) and the
// MCP servers' elicitations (the built-in files and runners servers confirm destructive actions that
// way) get their answers from the same place: `--yes`, someone to ask (a terminal, a UI), or nobody.
// With nobody to ask, the answer is an immediate refusal that says so, never a wait that times out.
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationHandler, ElicitationRequest } from '../mcp/types';
import type { ApprovalRequester } from './approvals';

/** The words every "nobody to ask" refusal carries (tests and models can rely on them). */
export const NOBODY_ASKED = 'needs approval; nobody could be asked';

/** The `_meta` key of a declined elicitation that nobody could answer: its value says why. */
export const UNANSWERED_META = 'erasmus/unanswered';

/** Thrown by an ApprovalRequester when nobody can answer: the call is refused at once with `message`. */
export class UnansweredApproval extends Error {
  constructor(readonly why: string) {
    super(`${NOBODY_ASKED} (${why})`);
    this.name = 'UnansweredApproval';
  }
}

/** Someone who can answer: approvals and elicitations, e.g. on a terminal. */
export interface Asker {
  approval: ApprovalRequester;
  elicitation: ElicitationHandler;
}

export interface ApprovalPathOptions {
  /** `--yes`: approve what the policy does not refuse and accept the servers' confirmations. */
  yes?: boolean;
  /** Someone to ask; absent = nobody. */
  asker?: Asker;
  /** Why nobody can be asked, for the refusal and how to recover, e.g. "--json without --yes; pass --yes to approve". */
  nobodyBecause?: string;
}

export interface ApprovalPath {
  /** The agent's approvals (policy `approve` verdicts); with `yes`, the policy never asks. */
  approvals: ApprovalRequester;
  /** The hub's elicitation handler (servers' confirmations and forms). */
  elicitation: ElicitationHandler;
  /** Whether sessions should run with autoApprove (`--yes`). */
  autoApprove: boolean;
}

interface FormSchema {
  properties?: Record<string, { type?: string; default?: unknown; enum?: unknown[] }>;
  required?: string[];
}

/**
 * The answer `--yes` gives to a form: accept, with each field's default (a boolean without one is
 * true: a confirmation). A required field with no default cannot be made up: that form is declined,
 * with the reason in `_meta`. A URL elicitation (the user must visit a page) cannot be done by `--yes`.
 */
export function acceptWithDefaults(req: ElicitationRequest): ElicitResult {
  const params = req.params as { mode?: string; url?: string; requestedSchema?: FormSchema };
  if (params.mode === 'url' || params.url) return unanswered(`the server asks the user to open ${params.url ?? 'a page'}, which --yes cannot do`);
  const content: Record<string, string | number | boolean> = {};
  const missing: string[] = [];
  for (const [name, f] of Object.entries(params.requestedSchema?.properties ?? {})) {
    const given = f.default ?? f.enum?.[0];
    if (typeof given === 'string' || typeof given === 'number' || typeof given === 'boolean') content[name] = given;
    else if (f.type === 'boolean') content[name] = true;
    else if (params.requestedSchema?.required?.includes(name)) missing.push(name);
  }
  if (missing.length) return unanswered(`the server asks for ${missing.join(', ')}, which --yes cannot fill in`);
  return { action: 'accept', content };
}

/** A declined elicitation that says nobody could be asked, and why. */
export function unanswered(why: string): ElicitResult {
  return { action: 'decline', _meta: { [UNANSWERED_META]: why } };
}

/** The reason of a declined elicitation that nobody could answer (see `unanswered`), else undefined. */
export function unansweredReason(result: { _meta?: Record<string, unknown> }): string | undefined {
  const why = result._meta?.[UNANSWERED_META];
  return typeof why === 'string' ? why : undefined;
}

/** Builds the answers for the agent and the hub from `--yes`, an asker, or nobody. */
export function approvalPath(o: ApprovalPathOptions): ApprovalPath {
  const because = o.nobodyBecause ?? 'no one is watching this session; run it with --yes to approve';
  if (o.yes) {
    return {
      approvals: async () => 'allow_once',
      elicitation: async (req) => acceptWithDefaults(req),
      autoApprove: true,
    };
  }
  if (o.asker) return { approvals: o.asker.approval, elicitation: o.asker.elicitation, autoApprove: false };
  return {
    approvals: async () => {
      throw new UnansweredApproval(because);
    },
    elicitation: async () => unanswered(because),
    autoApprove: false,
  };
}
