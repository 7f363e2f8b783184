import type { ApprovalDecision } from '../../contract/index';

export interface ApprovalRequest {
  requestId: string;
  kind: 'tool' | 'command' | 'sampling';
  callId?: string;
  name: string;
  args: Record<string, unknown>;
  reasons: string[];
  /** The workflow step asking (`b:development`), so a face can name it: a parallel run has several steps in flight. */
  step?: string;
}

/** Asks whoever watches the session (renderer, CLI prompt) and waits for the answer. */
export type ApprovalRequester = (req: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/**
 * Pending approvals of one session: `request` returns a promise that `answer` settles (the
 * `agent.approve` method); a stopped session denies what is pending.
 */
export class ApprovalBroker {
  private readonly pending = new Map<string, (d: ApprovalDecision) => void>();

  readonly requester: ApprovalRequester = (req, signal) =>
    new Promise<ApprovalDecision>((resolve) => {
      if (signal.aborted) return resolve('deny');
      const done = (d: ApprovalDecision) => {
        this.pending.delete(req.requestId);
        signal.removeEventListener('abort', onAbort);
        resolve(d);
      };
      const onAbort = () => done('deny');
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(req.requestId, done);
    });

  answer(requestId: string, decision: ApprovalDecision): boolean {
    const fn = this.pending.get(requestId);
    if (!fn) return false;
    fn(decision);
    return true;
  }

  get size(): number {
    return this.pending.size;
  }
}
