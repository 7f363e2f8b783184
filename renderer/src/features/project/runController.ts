import type { EventName, WorkflowPlan } from '../../../../electron/contract/index';
import type { RpcClient } from '../../api/client';
import { Store } from '../../ui/store';
import type { RunAction, RunState } from './runState';

const RUN_EVENTS = ['workflow.status', 'workflow.transition', 'workflow.step', 'workflow.goalRequired', 'workflow.plan', 'workflow.task'] as const satisfies readonly EventName[];

/**
 * Keeps the open project's run in a store: finds its newest run, starts one, forwards the user's
 * answers and controls, and refreshes `workflow.status` whenever a workflow event names the run.
 */
export class RunController {
  readonly store = new Store<RunState>({ kind: 'idle' });
  private readonly offs: Array<() => void> = [];
  private refreshing: Promise<void> | null = null;
  private again = false;

  constructor(private readonly client: RpcClient) {
    for (const name of RUN_EVENTS) {
      this.offs.push(client.on(name, (p) => {
        const s = this.store.get();
        if (s.kind === 'run' && p.runId === s.view.runId) void this.refresh();
        else if ((s.kind === 'none' || s.kind === 'loading') && p.projectDir === s.projectDir) void this.attach(s.projectDir);
      }));
    }
  }

  get runId(): string | null {
    const s = this.store.get();
    return s.kind === 'run' ? s.view.runId : null;
  }

  async attach(projectDir: string): Promise<void> {
    this.store.set((s) => (s.kind === 'run' && s.projectDir === projectDir ? s : { kind: 'loading', projectDir }));
    try {
      const { runId } = await this.client.request('workflow.latest', { projectDir });
      if (!runId) return this.store.set(() => ({ kind: 'none', projectDir }));
      const view = await this.client.request('workflow.status', { runId });
      this.store.set(() => ({ kind: 'run', projectDir, view }));
    } catch (e) {
      this.store.set(() => ({ kind: 'error', projectDir, message: (e as Error).message }));
    }
  }

  /** Creates a run for the project and starts it (documents first, then the goal question if needed). */
  async start(projectDir: string, executor: 'agent' | 'external', options: { goal?: string; autoApprove?: boolean; dirtyTree?: 'commit' | 'stash' | 'include'; documents?: 'drifted' } = {}): Promise<void> {
    const { runId } = await this.client.request('workflow.load', {
      projectDir,
      executor,
      ...(options.documents ? { documents: options.documents } : {}),
      ...(options.dirtyTree ? { dirtyTree: options.dirtyTree } : {}),
      ...(options.goal ? { goal: options.goal } : {}),
      ...(executor === 'agent' && options.autoApprove ? { autoApprove: true } : {}),
    });
    this.store.set(() => ({ kind: 'loading', projectDir }));
    await this.client.request('workflow.start', { runId });
    const view = await this.client.request('workflow.status', { runId });
    this.store.set(() => ({ kind: 'run', projectDir, view }));
  }

  /** Re-reads the run; calls made while a read is in flight coalesce into one more read. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const runId = this.runId;
    if (!runId) return Promise.resolve();
    this.refreshing = this.client
      .request('workflow.status', { runId })
      .then((view) => this.store.set((s) => (s.kind === 'run' && s.view.runId === runId ? { ...s, view } : s)))
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = null;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      });
    return this.refreshing;
  }

  async answerGoal(goal: string): Promise<void> {
    await this.client.request('workflow.answerGoal', { runId: this.need(), goal });
    await this.refresh();
  }

  async approve(plan?: WorkflowPlan): Promise<void> {
    await this.client.request('workflow.approve', { runId: this.need(), ...(plan ? { plan } : {}) });
    await this.refresh();
  }

  /** `component`: retry or skip a side-by-side component that blocked while others run; `answer`: the user's words for a retried step. */
  async act(action: RunAction, component?: string, answer?: string): Promise<void> {
    const runId = this.need();
    if (action === 'retry' && (component || answer)) await this.client.request('workflow.retry', { runId, ...(component ? { component } : {}), ...(answer ? { answer } : {}) });
    else if (component && action === 'skip') await this.client.request('workflow.skip', { runId, component });
    else await this.client.request(`workflow.${action}`, { runId });
    await this.refresh();
  }

  /** Offers a new run of the project (after a stop, a block or completion): the start form again. */
  newRun(): void {
    const s = this.store.get();
    if (s.kind === 'run') this.store.set(() => ({ kind: 'none', projectDir: s.projectDir }));
  }

  reset(): void {
    this.store.set(() => ({ kind: 'idle' }));
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }

  private need(): string {
    const id = this.runId;
    if (!id) throw new Error('no workflow run is open');
    return id;
  }
}
