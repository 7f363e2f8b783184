import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload, MethodName, ParamsOf, ResultOf, TerminalInfo } from '../../../../electron/contract/index';
import { TerminalStore, type TerminalClient, type TerminalTab } from './store';
import { groupByWorktree, groupSteps, TAB_PX, LABEL_PX, tabText, TerminalTabs, visibleRange } from './TerminalTabs';
import { stepNamer } from './stepOf';
import { PaneHeader } from './PaneHeader';

/** A client whose events the test fires and whose requests it records (the core is not in the renderer tests). */
class FakeClient implements TerminalClient {
  readonly requests: { method: string; params: unknown }[] = [];
  private readonly handlers = new Map<string, Set<(p: unknown) => void>>();
  existing: TerminalInfo[] = [];
  /** `terminal.output` answers by id (a promise the test settles, to fire live output while it loads). */
  readonly outputs = new Map<string, ResultOf<'terminal.output'> | Promise<ResultOf<'terminal.output'>>>();
  request<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    this.requests.push({ method, params });
    if (method === 'terminal.list') return Promise.resolve({ terminals: this.existing } as ResultOf<M>);
    if (method === 'terminal.openShell') return Promise.resolve(info('sh1', 'shell') as ResultOf<M>);
    if (method === 'terminal.output') {
      const { id } = params as { id: string };
      const answer = this.outputs.get(id) ?? { data: `recorded output of ${id}\r\n`, truncated: false, end: 30 };
      return answer instanceof Promise ? (answer as Promise<ResultOf<M>>) : Promise.resolve(answer as ResultOf<M>);
    }
    if (method === 'terminal.kill' && (params as { id: string }).id === 'gone') return Promise.reject(new Error('no terminal with id "gone"'));
    return Promise.resolve({ ok: true } as ResultOf<M>);
  }
  notify<M extends MethodName>(method: M, params: ParamsOf<M>): void {
    this.requests.push({ method, params });
  }
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    const set = this.handlers.get(event) ?? new Set();
    this.handlers.set(event, set);
    set.add(listener as (p: unknown) => void);
    return () => set.delete(listener as (p: unknown) => void);
  }
  fire<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of this.handlers.get(event) ?? []) l(payload);
  }
  sent(method: string) {
    return this.requests.filter((r) => r.method === method).map((r) => r.params);
  }
}

function info(id: string, kind: 'command' | 'shell', extra: Partial<TerminalInfo> = {}): TerminalInfo {
  return { id, kind, title: kind === 'shell' ? 'shell' : `run ${id}`, cwd: '/p', cols: 80, rows: 24, running: true, exitCode: null, startedAt: 0, ...extra };
}

describe('TerminalStore', () => {
  it('a view that connects late shows again what finished terminals printed', async () => {
    const client = new FakeClient();
    client.existing = [info('done1', 'command', { running: false, exitCode: 0 })];
    const store = new TerminalStore(client);
    await store.start();
    expect(client.sent('terminal.output')).toEqual([{ id: 'done1' }]);
    expect(store.buffered('done1')).toBe('recorded output of done1\r\n');
    const written: string[] = [];
    store.attach('done1', { write: (data, done) => (written.push(data), done()) });
    expect(written).toEqual(['recorded output of done1\r\n']);
    store.dispose();
  });

  it('a running terminal shows its backlog, then live output, with no line twice while the backlog loads', async () => {
    const client = new FakeClient();
    client.existing = [info('live1', 'command')];
    let answer!: (r: ResultOf<'terminal.output'>) => void;
    client.outputs.set('live1', new Promise((resolve) => (answer = resolve)));
    const store = new TerminalStore(client, { ackChars: 1 });
    const started = store.start();
    // Output printed before the list answers and while the backlog loads: the backlog holds its first line.
    client.fire('terminal.data', { id: 'live1', data: 'line 2\r\n', at: 8 });
    await new Promise((r) => setTimeout(r, 0));
    expect(client.sent('terminal.output')).toEqual([{ id: 'live1' }]);
    client.fire('terminal.data', { id: 'live1', data: 'line 3\r\nline 4\r\n', at: 16 });
    expect(store.buffered('live1')).toBe('');
    answer({ data: 'line 1\r\nline 2\r\nline 3\r\n', truncated: false, end: 24 });
    await started;
    expect(store.buffered('live1')).toBe('line 1\r\nline 2\r\nline 3\r\nline 4\r\n');
    // Held output was acknowledged as it came, so the command never stalled.
    expect(client.sent('terminal.ack').reduce((n: number, p) => n + (p as { chars: number }).chars, 0)).toBe(24);
    client.fire('terminal.data', { id: 'live1', data: 'line 5\r\n', at: 32 });
    expect(store.buffered('live1')).toBe('line 1\r\nline 2\r\nline 3\r\nline 4\r\nline 5\r\n');
    store.dispose();
  });

  it('a chunk that comes after the backlog yet repeats part of it shows only what is new, whatever the order', async () => {
    const client = new FakeClient();
    client.existing = [info('live2', 'shell')];
    let answer!: (r: ResultOf<'terminal.output'>) => void;
    client.outputs.set('live2', new Promise((resolve) => (answer = resolve)));
    const store = new TerminalStore(client, { ackChars: 1 });
    const started = store.start();
    await new Promise((r) => setTimeout(r, 0));
    // The backlog answers first; a chunk sent before it (its part up to `end` is in the backlog) comes after it.
    answer({ data: '$ echo hi\r\nhi\r\n', truncated: false, end: 15 });
    await started;
    client.fire('terminal.data', { id: 'live2', data: 'hi\r\n$ ', at: 11 });
    client.fire('terminal.data', { id: 'live2', data: '$ echo hi\r\n', at: 0 });
    client.fire('terminal.data', { id: 'live2', data: 'ls\r\n', at: 17 });
    expect(store.buffered('live2')).toBe('$ echo hi\r\nhi\r\n$ ls\r\n');
    // What was dropped still counts as taken: the core's flow control sees every character it sent acknowledged.
    expect(client.sent('terminal.ack').reduce((n: number, p) => n + (p as { chars: number }).chars, 0)).toBe(6 + 11 + 4);
    store.dispose();
  });

  it('back from a dropped connection, a tab gets what its terminal printed meanwhile, once, and the exits it missed', async () => {
    const client = new FakeClient();
    client.existing = [info('sh', 'shell'), info('cmd', 'command'), info('gone', 'command')];
    client.outputs.set('sh', { data: '$ a\r\n', truncated: false, end: 5 });
    client.outputs.set('cmd', { data: 'building\r\n', truncated: false, end: 10 });
    client.outputs.set('gone', { data: 'x\r\n', truncated: false, end: 3 });
    const store = new TerminalStore(client);
    await store.start();
    const written: string[] = [];
    store.attach('sh', { write: (d, done) => (written.push(d), done()) });
    client.fire('terminal.data', { id: 'sh', data: '1\r\n', at: 5 });
    // The connection drops: "2" and the command's exit are missed, and the core no longer has 'gone'.
    client.existing = [info('sh', 'shell'), info('cmd', 'command', { running: false, exitCode: 0 })];
    let answer!: (r: ResultOf<'terminal.output'>) => void;
    client.outputs.set('sh', new Promise((resolve) => (answer = resolve)));
    const again = store.resync();
    // Live output while the output is read again waits for it, and is not shown twice.
    client.fire('terminal.data', { id: 'sh', data: '3\r\n', at: 11 });
    await new Promise((r) => setTimeout(r, 0));
    answer({ data: '$ a\r\n1\r\n2\r\n3\r\n', truncated: false, end: 14 });
    await again;
    client.fire('terminal.data', { id: 'sh', data: '4\r\n', at: 14 });
    expect(written.join('')).toBe('$ a\r\n1\r\n2\r\n3\r\n4\r\n');
    expect(store.buffered('cmd')).toBe('building\r\n');
    const tabs = store.getSnapshot().tabs;
    expect(tabs.find((t) => t.id === 'cmd')).toMatchObject({ running: false, exitCode: 0 });
    // A terminal the core no longer has (a restarted core) is ended; what it printed stays.
    expect(tabs.find((t) => t.id === 'gone')).toMatchObject({ running: false, gone: true });
    expect(store.buffered('gone')).toBe('x\r\n');
    // Closing its tab closes it here alone: the core, which no longer has it, is not asked (it said "no terminal with id").
    await store.close('gone');
    expect(store.getSnapshot().tabs.map((t) => t.id)).not.toContain('gone');
    expect(client.requests.filter((r) => r.method === 'terminal.close')).toEqual([]);
    expect(store.getSnapshot().error).toBeFalsy();
    store.dispose();
  });

  it('says how much output the core no longer keeps before the backlog it sends, not skipping it in silence', async () => {
    const client = new FakeClient();
    client.existing = [info('big', 'command')];
    client.outputs.set('big', { data: 'last lines\r\n', truncated: true, end: 600_012 });
    const store = new TerminalStore(client);
    await store.start();
    expect(store.buffered('big')).toBe('\x1b[2m[600000 characters of output not kept: only the last 12 follow]\x1b[0m\r\nlast lines\r\n');
    store.dispose();
  });

  it('opens a tab per runner command as it starts, tracks its exit, and loads existing terminals', async () => {
    const client = new FakeClient();
    client.existing = [info('old', 'command', { running: false, exitCode: 0 })];
    const store = new TerminalStore(client);
    await store.start();
    expect(store.getSnapshot().tabs.map((t) => t.id)).toEqual(['old']);
    client.fire('terminal.opened', info('c1', 'command', { command: 'pnpm test' }));
    expect(store.getSnapshot().activeId).toBe('c1');
    client.fire('terminal.exited', { id: 'c1', exitCode: null, signal: 15, timedOut: true });
    expect(store.getSnapshot().tabs.find((t) => t.id === 'c1')).toMatchObject({ running: false, timedOut: true, command: 'pnpm test' });
    store.dispose();
  });

  it('does not steal focus from a running shell when a command starts', async () => {
    const client = new FakeClient();
    const store = new TerminalStore(client);
    await store.start();
    await store.openShell('/p');
    expect(client.sent('terminal.openShell')).toEqual([{ cwd: '/p' }]);
    expect(store.getSnapshot().activeId).toBe('sh1');
    client.fire('terminal.opened', info('c2', 'command'));
    expect(store.getSnapshot().activeId).toBe('sh1');
    expect(store.getSnapshot().tabs.map((t) => t.id)).toEqual(['sh1', 'c2']);
  });

  it('buffers output until the xterm mounts, then replays it and acknowledges rendered output in chunks', async () => {
    const client = new FakeClient();
    const store = new TerminalStore(client, { ackChars: 10 });
    await store.start();
    client.fire('terminal.opened', info('c3', 'command'));
    client.fire('terminal.data', { id: 'c3', data: 'hello ', at: 0 });
    client.fire('terminal.data', { id: 'c3', data: 'world\r\n', at: 6 });
    expect(store.buffered('c3')).toBe('hello world\r\n');
    // Buffered output is acknowledged so a tab nobody watches never stalls its command.
    expect(client.sent('terminal.ack')).toEqual([{ id: 'c3', chars: 13 }]);
    const written: string[] = [];
    const pending: (() => void)[] = [];
    const detach = store.attach('c3', { write: (d, done) => (written.push(d), pending.push(done)) });
    expect(written).toEqual(['hello world\r\n']);
    client.fire('terminal.data', { id: 'c3', data: '0123456789ab', at: 13 });
    expect(written.at(-1)).toBe('0123456789ab');
    expect(client.sent('terminal.ack')).toHaveLength(1); // not yet rendered
    pending.at(-1)!();
    expect(client.sent('terminal.ack').at(-1)).toEqual({ id: 'c3', chars: 12 });
    detach();
  });

  it('sends keystrokes and sizes only to running terminals, and closes tabs', async () => {
    const client = new FakeClient();
    const store = new TerminalStore(client);
    await store.start();
    client.fire('terminal.opened', info('c4', 'command'));
    client.fire('terminal.opened', info('c5', 'command'));
    store.input('c4', 'y\r');
    store.resize('c4', 100, 30);
    client.fire('terminal.exited', { id: 'c4', exitCode: 0, signal: null, timedOut: false });
    store.input('c4', 'ignored');
    expect(client.sent('terminal.input')).toEqual([{ id: 'c4', data: 'y\r' }]);
    expect(client.sent('terminal.resize')).toEqual([{ id: 'c4', cols: 100, rows: 30 }]);
    store.select('c4');
    await store.close('c4');
    expect(store.getSnapshot().tabs.map((t) => t.id)).toEqual(['c5']);
    expect(store.getSnapshot().activeId).toBe('c5');
    client.fire('terminal.closed', { id: 'c5' });
    expect(store.getSnapshot()).toMatchObject({ tabs: [], activeId: null });
  });

  it('shows a failed action as an error', async () => {
    const client = new FakeClient();
    const store = new TerminalStore(client);
    await store.start();
    await store.kill('gone');
    expect(store.getSnapshot().error).toBe('no terminal with id "gone"');
  });
});

describe('TerminalTabs', () => {
  it('shows each tab with its state and wires select, stop, close and new shell', () => {
    const calls: string[] = [];
    render(
      <TerminalTabs
        tabs={[
          { id: 'a', kind: 'command', title: 'pnpm test', running: true, exitCode: null, timedOut: false },
          { id: 'b', kind: 'command', title: 'cargo build', running: false, exitCode: 101, timedOut: false },
          { id: 'c', kind: 'shell', title: 'shell', running: false, exitCode: null, timedOut: true },
        ]}
        activeId="a"
        onSelect={(id) => calls.push(`select ${id}`)}
        onKill={(id) => calls.push(`kill ${id}`)}
        onClose={(id) => calls.push(`close ${id}`)}
        onNewShell={() => calls.push('shell')}
      />,
    );
    expect(screen.getByRole('tab', { name: /pnpm test/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('terminal-status-a').textContent).toBe('running');
    expect(screen.getByTestId('terminal-status-b').textContent).toBe('exit 101');
    expect(screen.getByTestId('terminal-status-c').textContent).toBe('timed out');
    // The tab list holds tabs only; Stop and Close act on the active tab and say which.
    expect(screen.getByRole('tablist').querySelectorAll('button:not([role="tab"])').length).toBe(0);
    expect(screen.queryByRole('button', { name: /Stop cargo build/ })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: /cargo build/ }));
    fireEvent.click(screen.getByRole('button', { name: '■ Stop pnpm test' }));
    fireEvent.click(screen.getByRole('button', { name: '× Close pnpm test' }));
    fireEvent.click(screen.getByRole('button', { name: /New shell/ }));
    fireEvent.keyDown(screen.getByRole('tab', { name: /pnpm test/ }), { key: 'ArrowRight' });
    expect(calls).toEqual(['select b', 'kill a', 'close a', 'shell', 'select b']);
  });

  it("a command tab shows its command, not the tool's name its title leads with", () => {
    expect(tabText({ kind: 'command', title: 'bash_run: echo a | node wc.js', command: 'echo a | node wc.js\nexit' })).toBe('echo a | node wc.js');
    expect(tabText({ kind: 'command', title: 'bash_run: x' })).toBe('bash_run: x');
    expect(tabText({ kind: 'shell', title: 'shell', command: 'bash' })).toBe('shell');
  });

  it('the pane above the output says the command whole, the folder it ran in, its step and how it ended, as the CLI does', () => {
    const tab = (extra: Partial<TerminalTab>): TerminalTab => ({ id: 'c1', kind: 'command', title: 'bash_run: npm test', command: 'npm test -- --reporter dot\n  && echo done', running: false, exitCode: 1, timedOut: false, cwd: '/p/pkg', ...extra });
    const view = render(<PaneHeader tab={tab({})} project="/p" step="adder · testing" />);
    expect(screen.getByTestId('terminal-pane-command').textContent).toBe('$ npm test -- --reporter dot\n  && echo done');
    expect(screen.getByTestId('terminal-pane-cwd').textContent).toBe('in pkg');
    expect(screen.getByTestId('terminal-pane-step').textContent).toBe('adder · testing');
    expect(screen.getByTestId('terminal-pane-exit').textContent).toBe('exit 1');
    view.rerender(<PaneHeader tab={tab({ cwd: '/p', running: true, exitCode: null })} project="/p" />);
    expect(screen.getByTestId('terminal-pane-cwd').textContent).toBe('in the project folder');
    expect(screen.getByTestId('terminal-pane-exit').textContent).toBe('running');
    expect(screen.queryByTestId('terminal-pane-step')).toBeNull();
    view.rerender(<PaneHeader tab={tab({ cwd: '/elsewhere', timedOut: true, exitCode: null })} project="/p" />);
    expect(screen.getByTestId('terminal-pane-cwd').textContent).toBe('in /elsewhere');
    expect(screen.getByTestId('terminal-pane-exit').textContent).toBe('timed out');
    // A shell tab has no command: it says it is a shell, and where.
    view.rerender(<PaneHeader tab={tab({ kind: 'shell', title: 'shell', command: 'bash', cwd: '/p', running: true, exitCode: null })} project="/p" />);
    expect(screen.queryByTestId('terminal-pane-command')).toBeNull();
    expect(screen.getByTestId('terminal-pane-header').textContent).toContain('Shell');
    view.unmount();
  });

  it("groups a parallel run's tabs per worktree, each named by its component's step", () => {
    const wt = (c: string) => `/p/.git/erasmus/worktrees/r1/${c}`;
    const tab = (id: string, cwd: string, startedAt: number) => ({ id, kind: 'command' as const, title: id, command: id, cwd, running: false, exitCode: 0, timedOut: false, startedAt });
    const tabs = [tab('t1', wt('a'), 1000), tab('t2', wt('b'), 2000), tab('t3', '/p', 3000), tab('t4', wt('a'), 4000)];
    expect(groupByWorktree(tabs).map((t) => t.id)).toEqual(['t3', 't1', 't4', 't2']);
    const e = (state: string, component: string, from: number, to: number) => ({ state, component, worktree: wt(component), enteredAt: new Date(from).toISOString(), leftAt: new Date(to).toISOString() });
    const name = stepNamer({ projectDir: '/p', timeline: [e('a:testing', 'a', 500, 5000), e('b:testing', 'b', 1500, 2500)] });
    expect(tabs.map(name)).toEqual(['a · testing', 'b · testing', undefined, 'a · testing']);
  });

  it('puts the project’s tabs first, names the others by folder, and tells same-named tabs apart by time', () => {
    const view = render(
      <TerminalTabs
        project="/w/adder"
        tabs={[
          { id: 'x', kind: 'command', title: 'tests: node --test', running: false, exitCode: 0, timedOut: false, cwd: '/w/other', startedAt: Date.UTC(2026, 0, 1, 10, 0, 0) },
          { id: 'y', kind: 'command', title: 'tests: node --test', running: false, exitCode: 1, timedOut: false, cwd: '/w/adder', startedAt: Date.UTC(2026, 0, 1, 10, 5, 0) },
        ]}
        activeId="y"
        onSelect={() => {}}
        onKill={() => {}}
        onClose={() => {}}
        onNewShell={() => {}}
      />,
    );
    // Another folder's tabs (a closed project's) wait behind a toggle.
    expect(within(view.container).getAllByRole('tab')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('terminal-others'));
    expect(screen.getByTestId('terminal-others').textContent).toBe('Hide other folders (1)');
    const names = within(view.container).getAllByRole('tab').map((t) => t.textContent ?? '');
    expect(names[0]).toMatch(/^tests: node --test\d/);
    expect(names[1]).toMatch(/^other: tests: node --test/);
    expect(names[0]).not.toBe(names[1]!.replace('other: ', ''));
  });

  it('names a command’s tab by the workflow step it ran in, and hides every project’s tabs once no project is open', () => {
    const at = (s: number) => Date.UTC(2026, 0, 1, 10, 0, s);
    const stepOf = stepNamer({
      projectDir: '/w/adder',
      timeline: [
        { state: 'adder:testing', enteredAt: new Date(at(0)).toISOString(), leftAt: new Date(at(10)).toISOString() },
        { state: 'adder:debugging', enteredAt: new Date(at(10)).toISOString(), leftAt: new Date(at(20)).toISOString() },
        { state: 'adder:testing', enteredAt: new Date(at(20)).toISOString() },
      ],
    });
    const tabs = [
      { id: 'a', kind: 'command' as const, title: 'tests: node --test', running: false, exitCode: 1, timedOut: false, cwd: '/w/adder', startedAt: at(5) },
      { id: 'b', kind: 'command' as const, title: 'tests: node --test', running: true, exitCode: null, timedOut: false, cwd: '/w/adder', startedAt: at(25) },
      { id: 'c', kind: 'command' as const, title: 'ls', running: false, exitCode: 0, timedOut: false, cwd: '/w/other', startedAt: at(5) },
    ];
    expect(tabs.map(stepOf)).toEqual(['adder · testing', 'adder · testing, attempt 2', undefined]);
    const props = { tabs, activeId: 'a', onSelect: () => {}, onKill: () => {}, onClose: () => {}, onNewShell: () => {}, stepOf };
    const view = render(<TerminalTabs {...props} project="/w/adder" />);
    // Each step is named once before its tabs (a tab by its command); a tab's own name starts with its step.
    expect(within(view.container).getAllByTestId('terminal-group').map((g) => g.textContent)).toEqual(['adder · testing', 'adder · testing, attempt 2']);
    expect(within(view.container).getAllByRole('tab').map((t) => t.textContent?.split(/\d/)[0])).toEqual(['adder · testing: tests: node --test', 'adder · testing, attempt ']);
    view.rerender(<TerminalTabs {...props} activeId={null} project={undefined} />);
    expect(within(view.container).queryAllByRole('tab')).toHaveLength(0);
    expect(within(view.container).getByTestId('terminal-others').textContent).toBe('Show other folders (3)');
  });

  it('lays out as many tabs as fit around the active one, each step named once, the rest in a menu', () => {
    const steps = groupSteps(['a · testing', 'a · testing', undefined, 'b · testing', 'b · testing', 'b · testing']);
    expect(steps.map((p) => p.group)).toEqual([0, 0, 1, 2, 2, 2]);
    // Everything fits: all shown.
    expect(visibleRange(steps, 5, 6 * TAB_PX + 2 * LABEL_PX)).toEqual([0, 5]);
    // Not all fits: the active tab and its neighbours (the menu button sits beside the strip).
    const narrow = 3 * TAB_PX + LABEL_PX;
    expect(visibleRange(steps, 5, narrow)).toEqual([3, 5]);
    expect(visibleRange(steps, 0, narrow)).toEqual([0, 2]);
    const [s, e] = visibleRange(steps, 2, TAB_PX + 20);
    expect([s, e]).toEqual([2, 2]);
    // Even narrower than one tab, the active one still shows.
    expect(visibleRange(steps, 4, 10)).toEqual([4, 4]);
  });

  it('at a narrow width the active tab stays in the strip and the others are a menu away', () => {
    const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
    const observed = globalThis.ResizeObserver;
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 4 * TAB_PX + 2 * LABEL_PX });
    globalThis.ResizeObserver = class {
      observe() {}
      disconnect() {}
      unobserve() {}
    } as unknown as typeof ResizeObserver;
    try {
      const tabs = Array.from({ length: 12 }, (_, i) => ({ id: `t${i}`, kind: 'command' as const, title: `cmd ${i}`, running: i === 11, exitCode: i === 11 ? null : 0, timedOut: false, cwd: '/p', startedAt: 1000 + i }));
      const stepOf = (t: { id: string }) => (Number(t.id.slice(1)) < 6 ? 'a · testing' : 'a · debugging');
      const selected: string[] = [];
      const props = { tabs, project: '/p', onSelect: (id: string) => selected.push(id), onKill: () => {}, onClose: () => {}, onNewShell: () => {}, stepOf };
      const view = render(<TerminalTabs {...props} activeId="t11" />);
      const shown = () => within(view.container).getAllByRole('tab').map((t) => t.getAttribute('data-tab'));
      expect(shown()).toContain('t11');
      expect(shown().length).toBeLessThan(12);
      expect(within(view.container).getAllByTestId('terminal-group').map((g) => g.textContent)).toEqual(['a · debugging']);
      const more = screen.getByTestId('terminal-more');
      expect(more.textContent).toBe(`${12 - shown().length} more ▾`);
      fireEvent.click(more);
      expect(more.getAttribute('aria-expanded')).toBe('true');
      const menu = screen.getByTestId('terminal-more-list');
      // The menu names the steps of the tabs it holds, then each tab by its command.
      expect(within(menu).getByText('a · testing')).toBeTruthy();
      fireEvent.click(within(menu).getByRole('button', { name: /cmd 0/ }));
      expect(selected).toEqual(['t0']);
      expect(screen.queryByTestId('terminal-more-list')).toBeNull();
      // The chosen tab comes into the strip.
      view.rerender(<TerminalTabs {...props} activeId="t0" />);
      expect(shown()).toContain('t0');
      expect(shown()).not.toContain('t11');
    } finally {
      if (original) Object.defineProperty(HTMLElement.prototype, 'clientWidth', original);
      globalThis.ResizeObserver = observed;
    }
  });
});
