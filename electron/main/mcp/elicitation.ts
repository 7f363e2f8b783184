import { randomUUID } from 'node:crypto';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../api/events';
import { alwaysAllowWords, APPROVAL_META, ElicitationApproval, type EventPayload, type GrantKind, type GrantScope } from '../../contract/index';
import type { ApprovalGrants, GrantPlace } from '../project/approval-grants';
import type { ElicitationHandler, ElicitationRequest } from './types';

/** "Always allow" for the built-in servers' yes/no questions: the kept answers, where a question is asked, and which servers are Erasmus's own. */
export interface GrantDeps {
  grants: ApprovalGrants;
  /** The open project and the run driving it now (none: nothing can be always allowed). */
  place: () => GrantPlace | undefined;
  /** Only Erasmus's own (in-process) servers mark what may be always allowed; another server's mark is ignored. */
  builtin: (server: string) => boolean;
}

/** What a yes/no question approves, when the server described it (Erasmus's own servers do); a form with fields keeps its form. */
function approvalOf(p: { mode?: string; url?: string; requestedSchema?: Record<string, unknown>; _meta?: Record<string, unknown> }): ElicitationApproval | undefined {
  const props = p.requestedSchema?.properties;
  const hasFields = !!props && typeof props === 'object' && Object.keys(props).length > 0;
  if (p.mode === 'url' || p.url || hasFields) return undefined;
  const parsed = ElicitationApproval.safeParse(p._meta?.[APPROVAL_META]);
  return parsed.success ? parsed.data : undefined;
}

/** How a question meets the user's "always allow" answers: answered at once, or asked with the scopes it may be kept for. */
export interface GrantCheck {
  /** What the question approves, in words (without a grant mark that does not count here). */
  approval?: ElicitationApproval;
  /** A kept answer covers it: the words of that answer ("Always allow writing files in this project"). */
  granted?: string;
  /** Asked: what "always allow" may keep, and where. */
  offer?: { kind: GrantKind; scopes: GrantScope[]; place: GrantPlace };
}

/**
 * One rule for the app's broker and the CLI's prompt: a grant mark counts only from Erasmus's own
 * servers, asked in an open project; "for this run" is offered only while a run drives the project.
 */
export async function checkGrants(req: ElicitationRequest, always: GrantDeps | undefined): Promise<GrantCheck> {
  const parsed = approvalOf(req.params as Parameters<typeof approvalOf>[0]);
  const grantable = !!parsed?.grant && !!always?.builtin(req.server);
  const approval: ElicitationApproval | undefined = parsed && !grantable ? { ...parsed, grant: undefined } : parsed;
  if (approval && approval.grant === undefined) delete approval.grant;
  const place = grantable ? always!.place() : undefined;
  if (!grantable || !place || !approval?.grant) return approval ? { approval } : {};
  const held = await always!.grants.held(approval.grant, place);
  if (held) return { approval, granted: alwaysAllowWords(approval.grant, held) };
  return { approval, offer: { kind: approval.grant, scopes: place.runId ? ['run', 'project'] : ['project'], place } };
}

/** What a prompt answers when it may offer "always allow": the result, and the scope to keep with an accept. */
export type AnswerWithScope = ElicitResult & { always?: GrantScope };

/**
 * An elicitation handler that honours the user's "always allow" answers and offers them (the CLI's
 * prompt does what the app's card does): a question a kept answer covers is accepted at once and
 * `granted` says so; else `ask` is given the scopes it may offer, and a chosen scope is kept.
 */
export function withAlwaysAllow(
  always: GrantDeps,
  ask: (req: ElicitationRequest, signal: AbortSignal, offer?: { kind: GrantKind; scopes: GrantScope[] }) => Promise<AnswerWithScope>,
  granted: (g: { server: string; message: string; action?: string; words: string }) => void,
): ElicitationHandler {
  return async (req, signal) => {
    const check = await checkGrants(req, always);
    const message = (req.params as { message?: string }).message ?? '';
    if (check.granted) {
      granted({ server: req.server, message, ...(check.approval ? { action: check.approval.action } : {}), words: check.granted });
      return { action: 'accept' };
    }
    const { always: scope, ...result } = await ask(req, signal, check.offer ? { kind: check.offer.kind, scopes: check.offer.scopes } : undefined);
    if (scope && result.action === 'accept' && check.offer?.scopes.includes(scope)) await always.grants.add(check.offer.kind, scope, check.offer.place);
    return result;
  };
}

/**
 * Routes servers' elicitation requests to the UI as events (`mcp.elicitation.request`) and waits for
 * the answer (`respond`, from the `mcp.elicitation.respond` method), as long as the user takes: someone can
 * answer (the app is there), so nothing gives up on them. A request the server cancels (the call was stopped),
 * or one not answered within `timeoutMs` when given, ends as `cancel` and the UI is told (`mcp.elicitation.done`).
 */
export class ElicitationBroker {
  private readonly pending = new Map<string, { finish: (r: ElicitResult) => void; request: EventPayload<'mcp.elicitation.request'>; place?: GrantPlace; askedAt: number }>();

  constructor(
    private readonly bus: EventBus,
    private readonly timeoutMs?: number,
    private readonly always?: GrantDeps,
  ) {}

  readonly handler = async (req: ElicitationRequest, signal: AbortSignal): Promise<ElicitResult> => {
    const id = randomUUID();
    const p = req.params as { message: string; mode?: string; requestedSchema?: Record<string, unknown>; url?: string; _meta?: Record<string, unknown> };
    const check = await checkGrants(req, this.always);
    const approval = check.approval;
    if (check.granted) {
      // Answered as the user said it always should be, and the transcript is told so.
      this.bus.emit('mcp.elicitation.granted', { id, server: req.server, message: p.message, action: approval!.action, words: check.granted });
      return { action: 'accept' };
    }
    const place = check.offer?.place;
    const alwaysScopes = check.offer?.scopes;
    return new Promise<ElicitResult>((resolve) => {
      const finish = (r: ElicitResult) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.bus.emit('mcp.elicitation.done', { id, action: r.action });
        resolve(r);
      };
      const onAbort = () => finish({ action: 'cancel' });
      const timer = this.timeoutMs === undefined ? undefined : setTimeout(onAbort, this.timeoutMs);
      timer?.unref();
      signal.addEventListener('abort', onAbort, { once: true });
      const request = { id, server: req.server, message: p.message, mode: p.mode === 'url' || p.url ? ('url' as const) : ('form' as const), requestedSchema: p.requestedSchema, url: p.url, ...(approval ? { approval } : {}), ...(alwaysScopes ? { alwaysScopes } : {}) };
      this.pending.set(id, { finish, request, ...(place ? { place } : {}), askedAt: Date.now() });
      this.bus.emit('mcp.elicitation.request', request);
    });
  };

  /**
   * The user's answer; false when no such request is waiting (answered, cancelled or unknown). `always`
   * with an accept keeps the request's grant for the run or the project; a scope the request did not
   * offer is refused before anything is answered.
   */
  async respond(id: string, result: ElicitResult, always?: GrantScope): Promise<boolean> {
    const entry = this.pending.get(id);
    if (!entry) return false;
    if (always) {
      const kind = entry.request.approval?.grant;
      if (result.action !== 'accept') throw new Error('"always allow" goes with an accept');
      if (!kind || !entry.place || !entry.request.alwaysScopes?.includes(always)) throw new Error(`this question cannot be always allowed ${always === 'run' ? 'for this run' : 'in this project'}; answer it once`);
      await this.always!.grants.add(kind, always, entry.place);
    }
    entry.finish(result);
    if (always) await this.answerCovered();
    return true;
  }

  /**
   * After an "always allow": the other questions still waiting that it covers (a second component's command
   * asked at the same moment) are answered as the user just said, and the transcript is told so.
   */
  private async answerCovered(): Promise<void> {
    for (const [id, entry] of [...this.pending]) {
      const kind = entry.request.approval?.grant;
      if (!kind || !entry.place) continue;
      const held = await this.always!.grants.held(kind, entry.place);
      if (!held || !this.pending.has(id)) continue;
      this.bus.emit('mcp.elicitation.granted', { id, server: entry.request.server, message: entry.request.message, action: entry.request.approval!.action, words: alwaysAllowWords(kind, held) });
      entry.finish({ action: 'accept' });
    }
  }

  /** The requests still waiting, oldest first: a UI that connects after one was emitted shows it from here, with how long it has waited. */
  list(): EventPayload<'mcp.elicitation.request'>[] {
    const now = Date.now();
    return [...this.pending.values()].map((e) => ({ ...e.request, waitedMs: Math.max(0, now - e.askedAt) }));
  }

  /** Requests still waiting for an answer. */
  get waiting(): number {
    return this.pending.size;
  }

  dispose(): void {
    for (const { finish } of [...this.pending.values()]) finish({ action: 'cancel' });
  }
}
