import { randomUUID } from 'node:crypto';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../api/events';
import { alwaysAllowWords, APPROVAL_META, ElicitationApproval, type EventPayload, type GrantScope } from '../../contract/index';
import type { ApprovalGrants, GrantPlace } from '../project/approval-grants';
import type { ElicitationRequest } from './types';

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

/**
 * Routes servers' elicitation requests to the UI as events (`mcp.elicitation.request`) and waits for
 * the answer (`respond`, from the `mcp.elicitation.respond` method). A request the server cancels, or
 * one nobody answers in time, ends as `cancel` and the UI is told (`mcp.elicitation.done`).
 */
export class ElicitationBroker {
  private readonly pending = new Map<string, { finish: (r: ElicitResult) => void; request: EventPayload<'mcp.elicitation.request'>; place?: GrantPlace }>();

  constructor(
    private readonly bus: EventBus,
    private readonly timeoutMs = 10 * 60_000,
    private readonly always?: GrantDeps,
  ) {}

  readonly handler = async (req: ElicitationRequest, signal: AbortSignal): Promise<ElicitResult> => {
    const id = randomUUID();
    const p = req.params as { message: string; mode?: string; requestedSchema?: Record<string, unknown>; url?: string; _meta?: Record<string, unknown> };
    const parsed = approvalOf(p);
    // A grant mark counts only from Erasmus's own servers, asked in an open project.
    const grantable = !!parsed?.grant && !!this.always?.builtin(req.server);
    const approval: ElicitationApproval | undefined = parsed && !grantable ? { ...parsed, grant: undefined } : parsed;
    if (approval && approval.grant === undefined) delete approval.grant;
    const place = grantable ? this.always!.place() : undefined;
    let alwaysScopes: GrantScope[] | undefined;
    if (grantable && place && approval?.grant) {
      const held = await this.always!.grants.held(approval.grant, place);
      if (held) {
        // Answered as the user said it always should be, and the transcript is told so.
        this.bus.emit('mcp.elicitation.granted', { id, server: req.server, message: p.message, action: approval.action, words: alwaysAllowWords(approval.grant, held) });
        return { action: 'accept' };
      }
      alwaysScopes = place.runId ? ['run', 'project'] : ['project'];
    }
    return new Promise<ElicitResult>((resolve) => {
      const finish = (r: ElicitResult) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.bus.emit('mcp.elicitation.done', { id, action: r.action });
        resolve(r);
      };
      const onAbort = () => finish({ action: 'cancel' });
      const timer = setTimeout(onAbort, this.timeoutMs);
      timer.unref();
      signal.addEventListener('abort', onAbort, { once: true });
      const request = { id, server: req.server, message: p.message, mode: p.mode === 'url' || p.url ? ('url' as const) : ('form' as const), requestedSchema: p.requestedSchema, url: p.url, ...(approval ? { approval } : {}), ...(alwaysScopes ? { alwaysScopes } : {}) };
      this.pending.set(id, { finish, request, ...(place ? { place } : {}) });
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
    return true;
  }

  /** The requests still waiting, oldest first: a UI that connects after one was emitted shows it from here. */
  list(): EventPayload<'mcp.elicitation.request'>[] {
    return [...this.pending.values()].map((e) => e.request);
  }

  /** Requests still waiting for an answer. */
  get waiting(): number {
    return this.pending.size;
  }

  dispose(): void {
    for (const { finish } of [...this.pending.values()]) finish({ action: 'cancel' });
  }
}
