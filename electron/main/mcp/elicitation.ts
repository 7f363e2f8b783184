import { randomUUID } from 'node:crypto';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../api/events';
import { APPROVAL_META, ElicitationApproval, type EventPayload } from '../../contract/index';
import type { ElicitationRequest } from './types';

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
  private readonly pending = new Map<string, { finish: (r: ElicitResult) => void; request: EventPayload<'mcp.elicitation.request'> }>();

  constructor(
    private readonly bus: EventBus,
    private readonly timeoutMs = 10 * 60_000,
  ) {}

  readonly handler = (req: ElicitationRequest, signal: AbortSignal): Promise<ElicitResult> => {
    const id = randomUUID();
    const p = req.params as { message: string; mode?: string; requestedSchema?: Record<string, unknown>; url?: string; _meta?: Record<string, unknown> };
    const approval = approvalOf(p);
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
      const request = { id, server: req.server, message: p.message, mode: p.mode === 'url' || p.url ? ('url' as const) : ('form' as const), requestedSchema: p.requestedSchema, url: p.url, ...(approval ? { approval } : {}) };
      this.pending.set(id, { finish, request });
      this.bus.emit('mcp.elicitation.request', request);
    });
  };

  /** The user's answer; false when no such request is waiting (answered, cancelled or unknown). */
  respond(id: string, result: ElicitResult): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
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
