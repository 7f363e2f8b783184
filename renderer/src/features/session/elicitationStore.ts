import type { EventPayload } from '../../../../electron/contract/index';
import type { RpcClient } from '../../api/client';
import { Store } from '../../ui/store';

export type ElicitationRequest = EventPayload<'mcp.elicitation.request'>;

/** Questions MCP servers are asking the user (a runner's "run this destructive command?", a form), oldest first. */
export class ElicitationStore extends Store<readonly ElicitationRequest[]> {
  private readonly offs: Array<() => void>;
  constructor(private readonly client: RpcClient) {
    super([]);
    this.offs = [
      client.on('mcp.elicitation.request', (r) => {
        this.stamp(r.id);
        this.set((all) => (all.some((x) => x.id === r.id) ? all : [...all, r]));
      }),
      client.on('mcp.elicitation.done', ({ id }) => this.set((all) => (all.some((x) => x.id === id) ? all.filter((x) => x.id !== id) : all))),
    ];
    // Questions asked before this window connected (a reload, a browser opened later) are not lost.
    void client
      .request('mcp.elicitation.pending', {})
      .then(({ requests }) => {
        for (const r of requests) this.stamp(r.id, r.waitedMs);
        this.set((all) => [...requests.filter((r) => !all.some((x) => x.id === r.id)), ...all]);
      })
      .catch(() => undefined);
  }

  /**
   * When a request was asked (to tell the time it waited for the user): when this window saw it, less the wait the core
   * counted before (`waitedMs` of a pending one: a reload does not start the wait again). Kept as this window's clock.
   */
  private readonly seen = new Map<string, number>();
  private stamp(id: string, waitedMs = 0): void {
    if (!this.seen.has(id)) this.seen.set(id, Date.now() - waitedMs);
  }
  receivedAt(id: string): number | undefined {
    return this.seen.get(id);
  }

  /**
   * Back from a dropped connection (the core may have been restarted): the questions the core is still
   * waiting on replace this window's; those it no longer asks are returned (nobody can answer them now).
   */
  async resync(): Promise<ElicitationRequest[]> {
    const { requests } = await this.client.request('mcp.elicitation.pending', {});
    const asked = new Set(requests.map((r) => r.id));
    const gone = this.get().filter((r) => !asked.has(r.id));
    for (const r of requests) this.stamp(r.id, r.waitedMs);
    this.set((all) => [...all.filter((r) => asked.has(r.id)), ...requests.filter((r) => !all.some((x) => x.id === r.id))]);
    return gone;
  }

  /** Drops a request once answered here (the `done` event may follow, or not if the server went away). */
  settle(id: string): void {
    this.set((all) => all.filter((x) => x.id !== id));
    this.seen.delete(id);
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }
}
