import type { EventName, EventPayload, MethodName, ParamsOf, ResultOf, TerminalInfo } from '../../../../electron/contract/index';

/** The part of the RPC client the terminal view uses (a fake in tests). */
export interface TerminalClient {
  request<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** A request without an answer (acknowledgements: one per rendered batch while output floods). */
  notify<M extends MethodName>(method: M, params: ParamsOf<M>): void;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export interface TerminalTab {
  id: string;
  kind: TerminalInfo['kind'];
  title: string;
  command?: string;
  running: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** Where it runs and when it started (unknown for output that arrived before its announcement). */
  cwd?: string;
  startedAt?: number;
  /** The PTY's size as the core last said (a new xterm starts at it, so output laid out for it replays as it was). */
  cols?: number;
  rows?: number;
  /** The core no longer has it (it restarted): the tab shows what it printed; closing it asks the core nothing. */
  gone?: boolean;
}

export interface TerminalState {
  tabs: readonly TerminalTab[];
  activeId: string | null;
  error: string | null;
}

/** Where a mounted xterm takes its output; `done` runs once the data is rendered (flow control). */
export interface TerminalSink {
  write(data: string, done: () => void): void;
}

export interface TerminalStoreOptions {
  /** Acknowledge rendered output in chunks of this many characters (the core resumes below 5 000). */
  ackChars?: number;
  /** Output kept for a tab whose xterm is not mounted yet (oldest dropped first). */
  maxBufferedChars?: number;
}

/**
 * The terminal view's state: one tab per runner command (opened live from `terminal.*` events)
 * plus shell tabs, the output of tabs not yet on screen, and flow-control acknowledgements.
 */
export class TerminalStore {
  private state: TerminalState = { tabs: [], activeId: null, error: null };
  private readonly listeners = new Set<() => void>();
  private readonly buffers = new Map<string, string[]>();
  private readonly bufferedChars = new Map<string, number>();
  private readonly sinks = new Map<string, TerminalSink>();
  private readonly unacked = new Map<string, number>();
  private readonly offs: (() => void)[] = [];
  /** Live output that waits while a terminal's backlog loads (every terminal's until the list answers). */
  private readonly held = new Map<string, { data: string; at: number }[]>();
  private holdAll = true;
  /**
   * Where the output each tab has been given ends, counted as the core counts it (a chunk's `at`, a backlog's
   * `end`): output that arrives again, in a chunk that overlaps the backlog or an earlier chunk, is dropped.
   */
  private readonly shownTo = new Map<string, number>();
  private readonly ackChars: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly client: TerminalClient,
    options: TerminalStoreOptions = {},
  ) {
    this.ackChars = options.ackChars ?? 5_000;
    this.maxBuffered = options.maxBufferedChars ?? 2_000_000;
  }

  /** Subscribes to the core's terminal events and loads the terminals that already exist. */
  async start(): Promise<void> {
    this.offs.push(
      this.client.on('terminal.opened', (info) => this.upsert(info, info.kind === 'command')),
      this.client.on('terminal.data', ({ id, data, at }) => this.receive(id, data, at)),
      this.client.on('terminal.exited', ({ id, exitCode, timedOut }) => this.patch(id, { running: false, exitCode, timedOut })),
      this.client.on('terminal.closed', ({ id }) => this.forget(id)),
    );
    await this.load(false);
  }

  /**
   * Back from a dropped connection (the events sent meanwhile were missed): each tab gets what its terminal printed
   * since the output it shows, and the state the core has now (an exit it missed); a tab whose terminal the core no
   * longer has (a restarted core) is ended, its output kept.
   */
  async resync(): Promise<void> {
    this.holdAll = true;
    await this.load(true);
  }

  /** Reads the core's terminals and each one's output (less what its tab shows), holding live output meanwhile. */
  private async load(again: boolean): Promise<void> {
    try {
      const { terminals } = await this.client.request('terminal.list', {});
      for (const t of terminals) this.upsert(t, false);
      const listed = new Set(terminals.map((t) => t.id));
      if (again) for (const tab of this.state.tabs) if (!listed.has(tab.id) && !tab.gone) this.patch(tab.id, { running: false, gone: true });
      // Live output of a listed terminal waits for its backlog; a terminal opened since the list goes on live.
      for (const id of [...this.held.keys()]) if (!listed.has(id)) this.release(id);
      this.holdAll = false;
      // A view that connects late (a reload, a new window) shows again what each terminal printed, running or finished.
      await Promise.all(terminals.map((t) => this.replay(t.id)));
    } catch (err) {
      this.holdAll = false;
      for (const id of [...this.held.keys()]) this.release(id);
      this.setError(err);
    }
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.listeners.clear();
  }

  getSnapshot = (): TerminalState => this.state;
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  select(id: string): void {
    if (this.state.tabs.some((t) => t.id === id)) this.set({ ...this.state, activeId: id });
  }

  async openShell(cwd?: string): Promise<void> {
    try {
      const info = await this.client.request('terminal.openShell', cwd ? { cwd } : {});
      this.upsert(info, true);
    } catch (err) {
      this.setError(err);
    }
  }

  /** Stops a running command or shell (its whole process tree). */
  async kill(id: string): Promise<void> {
    try {
      await this.client.request('terminal.kill', { id });
    } catch (err) {
      this.setError(err);
    }
  }

  /** Closes a tab; the core stops the process first if it still runs. */
  async close(id: string): Promise<void> {
    // A tab whose terminal a restarted core no longer has closes here alone (asking the core gave "no terminal with id").
    if (!this.state.tabs.find((t) => t.id === id)?.gone) {
      try {
        await this.client.request('terminal.close', { id });
      } catch (err) {
        this.setError(err);
      }
    }
    this.forget(id);
  }

  input(id: string, data: string): void {
    const tab = this.state.tabs.find((t) => t.id === id);
    if (!tab?.running) return;
    this.client.request('terminal.input', { id, data }).catch((err) => this.setError(err));
  }

  resize(id: string, cols: number, rows: number): void {
    const tab = this.state.tabs.find((t) => t.id === id);
    if (!tab?.running) return;
    this.client.request('terminal.resize', { id, cols, rows }).catch(() => {});
  }

  /** A mounted xterm takes the tab's output: first what was buffered, then live data. */
  attach(id: string, sink: TerminalSink): () => void {
    this.sinks.set(id, sink);
    const buffered = this.buffers.get(id);
    this.buffers.delete(id);
    this.bufferedChars.delete(id);
    if (buffered?.length) sink.write(buffered.join(''), () => {});
    return () => {
      if (this.sinks.get(id) === sink) this.sinks.delete(id);
    };
  }

  /**
   * Puts a terminal's recorded output before anything its tab shows, then the live output that
   * arrived meanwhile, less what the backlog already holds (chunks start at `at`; the backlog ends at `end`).
   */
  private async replay(id: string): Promise<void> {
    if (!this.held.has(id)) this.held.set(id, []);
    const { data, end, truncated } = await this.client.request('terminal.output', { id }).catch(() => ({ data: '', end: 0, truncated: false }));
    // The backlog ends at `end`: only what the tab does not show yet goes to it (all of it, the first time).
    if (data && this.state.tabs.some((t) => t.id === id)) {
      // Output the core no longer keeps (beyond its window), between what the tab shows and the backlog: said, not skipped silently.
      const start = Math.max(0, end - data.length);
      const shown = this.shownTo.get(id) ?? 0;
      if (truncated && start > shown) this.put(id, `\x1b[2m[${start - shown} characters of output not kept: only the last ${data.length} follow]\x1b[0m\r\n`, false);
      this.take(id, data, start, false);
    }
    this.release(id);
  }

  /** Sends the live output held for `id` on (already acknowledged), less what its tab has been given. */
  private release(id: string): void {
    const chunks = this.held.get(id) ?? [];
    this.held.delete(id);
    for (const { data, at } of chunks) this.take(id, data, at, false);
  }

  /**
   * A chunk of live output for a tab, without the part its tab has been given already (a chunk that comes after
   * the backlog yet starts before its end). The dropped part counts as taken for flow control when `ack`.
   */
  private take(id: string, data: string, at: number, ack: boolean): void {
    const from = this.shownTo.get(id) ?? 0;
    const skip = Math.min(data.length, Math.max(0, from - at));
    this.shownTo.set(id, Math.max(from, at + data.length));
    if (skip && ack) this.acknowledge(id, skip);
    if (skip < data.length) this.put(id, skip ? data.slice(skip) : data, ack);
  }

  /** Output waiting for a tab's xterm (tests and diagnostics). */
  buffered(id: string): string {
    return (this.buffers.get(id) ?? []).join('');
  }

  private receive(id: string, data: string, at: number): void {
    if (this.holdAll || this.held.has(id)) {
      const held = this.held.get(id) ?? [];
      held.push({ data, at });
      this.held.set(id, held);
      // Held output counts as taken, as buffered output does.
      this.acknowledge(id, data.length);
      return;
    }
    this.take(id, data, at, true);
  }

  /** Output for a tab: to its xterm (acknowledged once rendered, when `ack`) or into its buffer (acknowledged now). */
  private put(id: string, data: string, ack: boolean): void {
    if (!this.state.tabs.some((t) => t.id === id)) {
      this.upsert({ id, kind: 'command', title: id, running: true, exitCode: null }, false);
    }
    const sink = this.sinks.get(id);
    if (sink) {
      sink.write(data, ack ? () => this.acknowledge(id, data.length) : () => {});
      return;
    }
    const chunks = this.buffers.get(id) ?? [];
    chunks.push(data);
    let size = (this.bufferedChars.get(id) ?? 0) + data.length;
    while (size > this.maxBuffered && chunks.length > 1) size -= chunks.shift()!.length;
    this.buffers.set(id, chunks);
    this.bufferedChars.set(id, size);
    // Buffered output counts as taken: a tab nobody looks at must not stall its command.
    if (ack) this.acknowledge(id, data.length);
  }

  private acknowledge(id: string, chars: number): void {
    const total = (this.unacked.get(id) ?? 0) + chars;
    if (total < this.ackChars) {
      this.unacked.set(id, total);
      return;
    }
    this.unacked.set(id, 0);
    this.client.notify('terminal.ack', { id, chars: total });
  }

  private upsert(info: Pick<TerminalInfo, 'id' | 'kind' | 'title' | 'running' | 'exitCode'> & Partial<Pick<TerminalInfo, 'cwd' | 'startedAt' | 'cols' | 'rows'>> & { command?: string }, activate: boolean): void {
    const tab: TerminalTab = {
      id: info.id,
      kind: info.kind,
      title: info.title,
      command: info.command,
      running: info.running,
      exitCode: info.exitCode,
      timedOut: false,
      ...(info.cwd ? { cwd: info.cwd } : {}),
      ...(info.startedAt ? { startedAt: info.startedAt } : {}),
      ...(info.cols && info.rows ? { cols: info.cols, rows: info.rows } : {}),
    };
    const exists = this.state.tabs.some((t) => t.id === info.id);
    const tabs = exists ? this.state.tabs.map((t) => (t.id === info.id ? { ...t, ...tab, timedOut: t.timedOut } : t)) : [...this.state.tabs, tab];
    const active = this.state.tabs.find((t) => t.id === this.state.activeId);
    // A new command takes the focus unless the user is in a running shell.
    const take = activate && !(active?.kind === 'shell' && active.running && info.kind === 'command');
    this.set({ ...this.state, tabs, activeId: take || !this.state.activeId ? info.id : this.state.activeId });
  }

  private patch(id: string, patch: Partial<TerminalTab>): void {
    if (!this.state.tabs.some((t) => t.id === id)) return;
    this.set({ ...this.state, tabs: this.state.tabs.map((t) => (t.id === id ? { ...t, ...patch } : t)) });
  }

  private forget(id: string): void {
    this.held.delete(id);
    this.shownTo.delete(id);
    this.buffers.delete(id);
    this.bufferedChars.delete(id);
    this.sinks.delete(id);
    this.unacked.delete(id);
    if (!this.state.tabs.some((t) => t.id === id)) return;
    const index = this.state.tabs.findIndex((t) => t.id === id);
    const tabs = this.state.tabs.filter((t) => t.id !== id);
    const activeId = this.state.activeId === id ? (tabs[Math.min(index, tabs.length - 1)]?.id ?? null) : this.state.activeId;
    this.set({ ...this.state, tabs, activeId });
  }

  private setError(err: unknown): void {
    this.set({ ...this.state, error: err instanceof Error ? err.message : String(err) });
  }

  private set(next: TerminalState): void {
    this.state = next;
    for (const l of this.listeners) l();
  }
}
