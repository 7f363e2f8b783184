import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary, TerminalInfo } from '../../../electron/contract/index';
import { ClientContext, ConnectionContext } from '../api/context';
import type { ConnectionStatus, StatusPipe } from '../api/pipes';
import { FakeCore } from '../testing/fakeCore';
import { ServicesContext } from './services';
import { App } from './App';

// Each test starts where a new user does: no saved place (the open project, the view), no cached theme.
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const adder: ProjectSummary = { path: '/p/adder', key: 'adder-1', name: 'adder', git: true, markers: ['package.json'], runners: ['npm', 'git'] };

/** A core with what the shell asks for on its first view; `project.open` answers when `answer()` is called. */
function shellCore() {
  let answer!: () => void;
  const answered = new Promise<void>((r) => (answer = r));
  const core = new FakeCore({
    'app.info': () => ({ version: '0.0.0', platform: 'linux', home: '/h', face: 'browser', sandbox: { available: true, detail: 'bwrap' } }),
    'project.recent': () => ({ projects: [] }),
    'terminal.list': () => ({ terminals: [] }),
  });
  core.on('project.open', async () => {
    // As the core does: the event first, then (here: later) the answer.
    core.emit('project.opened', adder);
    await answered;
    return adder;
  });
  return { core, answer };
}

/** The App over a connection the test drops and brings back (browser mode's reconnecting pipe); returns its status setter. */
function renderConnected(core: FakeCore): (s: ConnectionStatus) => void {
  let status: ConnectionStatus = 'connected';
  const listeners = new Set<(s: ConnectionStatus) => void>();
  const pipe = { get status() { return status; }, onStatus: (l: (s: ConnectionStatus) => void) => (listeners.add(l), () => listeners.delete(l)) } as unknown as StatusPipe;
  render(
    <ClientContext.Provider value={core.client}>
      <ConnectionContext.Provider value={pipe}>
        <ServicesContext.Provider value={core.services}><App /></ServicesContext.Provider>
      </ConnectionContext.Provider>
    </ClientContext.Provider>,
  );
  return (s) => {
    status = s;
    for (const l of listeners) l(s);
  };
}

/** The lazy terminal chunk (xterm) takes a while to import on a loaded machine. */
const LAZY = { timeout: 15_000 };

const shownView = () => screen.getByTestId('app-shell').getAttribute('data-view');

describe('App', () => {
  it('stays in the view the user went to when the answer to project.open arrives after the project.opened event', async () => {
    const { core, answer } = shellCore();
    core.render(<App />);
    fireEvent.change(await screen.findByTestId('project-path'), { target: { value: adder.path } });
    fireEvent.click(screen.getByTestId('open-path'));
    await screen.findByTestId('project-facts');
    fireEvent.keyDown(window, { key: '3', altKey: true });
    await waitFor(() => expect(shownView()).toBe('session'));
    answer();
    await waitFor(() => expect(core.callsOf('project.open')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(shownView()).toBe('session');
    // One project, attached once, though it was announced and answered.
    expect(core.callsOf('workflow.latest').length).toBeLessThanOrEqual(1);
  });

  it('loads the terminal view on the first visit to Terminal, not with the first view', async () => {
    const { core } = shellCore();
    core.render(<App />);
    await screen.findByTestId('project-path');
    await waitFor(() => expect(core.callsOf('terminal.list')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    const pane = screen.getByTestId('terminal-pane');
    expect(pane.textContent).toBe('');
    fireEvent.keyDown(window, { key: '4', altKey: true });
    await waitFor(() => expect(pane.querySelector('section[aria-label="Terminal"]')).not.toBeNull(), LAZY);
    expect(pane.textContent).toContain('Commands the agent runs appear here');
  }, 30_000);

  it('loads the terminal view when a runner starts a command', async () => {
    const { core } = shellCore();
    core.on('terminal.ack', () => ({ ok: true }));
    core.render(<App />);
    await screen.findByTestId('project-path');
    await waitFor(() => expect(core.callsOf('terminal.list')).toHaveLength(1));
    expect(screen.getByTestId('terminal-pane').textContent).toBe('');
    core.emit('terminal.opened', { id: 't2', kind: 'command', title: 'npm test', command: 'npm test', cwd: '/p/adder', cols: 80, rows: 24, running: true, exitCode: null, startedAt: 1 });
    core.emit('terminal.data', { id: 't2', data: 'x'.repeat(6_000), at: 0 });
    // The output is taken and acknowledged at once (the command is not stalled while the chunk loads) ...
    await waitFor(() => expect(core.callsOf('terminal.ack')).toEqual([{ id: 't2', chars: 6_000 }]));
    // ... and the view loads behind the one the user is in.
    await waitFor(() => expect(screen.getByTestId('terminal-pane').querySelector('section[aria-label="Terminal"]')).not.toBeNull(), LAZY);
    expect(screen.getByTestId('terminal-pane').textContent).toContain('npm test');
    expect(shownView()).toBe('project');
  }, 30_000);

  it('back from a dropped connection to a restarted core: a question and an approval no live process asks are closed "not asked any more", the dead session stops working, and nothing can be allowed', async () => {
    const { core } = shellCore();
    const setStatus = renderConnected(core);
    const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 's1', at: Date.now(), ...x } as never);
    e({ type: 'session_started', logPath: '/h/sessions/s1.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false, project: '/p/adder' });
    e({ type: 'tool_running', callId: 'c1', name: 'files__write_file', args: { path: 'bin/textutil.js' } });
    e({ type: 'approval_required', requestId: 'r1', kind: 'command', name: 'bash', args: { command: 'rm -rf dist' }, reasons: ['recursive delete'] });
    core.emit('mcp.elicitation.request', { id: 'q1', server: 'files', message: 'Overwrite the existing file bin/textutil.js (566 bytes). Allow?', mode: 'form', requestedSchema: { type: 'object', properties: {} }, approval: { tool: 'write_file', action: 'Overwrite the existing file bin/textutil.js (566 bytes)', change: 'overwrite', path: 'bin/textutil.js' } });
    await waitFor(() => expect(screen.getByTestId('status-approvals').textContent).toBe('2 approvals waiting'));
    expect(screen.getByTestId('status-bar').textContent).toContain('1 agent session working');
    expect(screen.getByText('Overwrite the existing file bin/textutil.js (566 bytes)')).toBeTruthy(); // its toast
    // serve was killed and started again: the new core asks nothing and runs no session.
    core.on('mcp.elicitation.pending', () => ({ requests: [] })).on('agent.list', () => ({ sessions: [] }));
    act(() => setStatus('reconnecting'));
    await screen.findByTestId('reconnecting');
    act(() => setStatus('connected'));
    await waitFor(() => expect(screen.queryByTestId('status-approvals')).toBeNull());
    expect(screen.getByTestId('status-bar').textContent).not.toContain('agent session working');
    const s1 = core.services.sessions.get().byId.s1!;
    expect(s1.running).toBe(false);
    expect(s1.items.find((i) => i.kind === 'question')).toMatchObject({ id: 'q1', answer: 'gone', action: 'Overwrite the existing file bin/textutil.js (566 bytes)' });
    expect(s1.items.find((i) => i.kind === 'approval')).toMatchObject({ id: 'r1', gone: true });
    expect(s1.items.find((i) => i.kind === 'tool')).toMatchObject({ id: 'c1', status: 'error' });
    expect(core.services.elicitations.get()).toEqual([]);
    await waitFor(() => expect(screen.queryByText('Overwrite the existing file bin/textutil.js (566 bytes)')).toBeNull()); // its toast is gone too
  });
  it('the same folder opened again with new facts (made a repository) shows them, its run not attached again', async () => {
    const { core, answer } = shellCore();
    core.render(<App />);
    fireEvent.change(await screen.findByTestId('project-path'), { target: { value: adder.path } });
    fireEvent.click(screen.getByTestId('open-path'));
    answer();
    await waitFor(() => expect(screen.getByTestId('project-git').textContent).toBe('a git repository'));
    const attached = core.callsOf('workflow.latest').length;
    act(() => core.emit('project.opened', { ...adder, git: false, runners: ['npm'] }));
    await screen.findByTestId('make-repository');
    expect(core.callsOf('workflow.latest')).toHaveLength(attached);
  });

  it('back from a dropped connection, the terminals are read again: an exit missed meanwhile shows, and their output is asked for what was printed meanwhile', async () => {
    const { core } = shellCore();
    const shell: TerminalInfo = { id: 'sh', kind: 'shell', title: 'shell', cwd: '/p/adder', cols: 80, rows: 24, running: true, exitCode: null, startedAt: 1 };
    let now = { ...shell };
    let printed = '$ make\r\n';
    core.on('terminal.list', () => ({ terminals: [now] })).on('terminal.output', () => ({ data: printed, truncated: false, end: printed.length }));
    core.on('terminal.resize', () => ({ ok: true }));
    const setStatus = renderConnected(core);
    expect((await screen.findByTestId('terminal-status-sh', undefined, LAZY)).textContent).toBe('running');
    expect(core.callsOf('terminal.output')).toEqual([{ id: 'sh' }]);
    act(() => setStatus('reconnecting'));
    await screen.findByTestId('reconnecting');
    // While the socket was down the shell printed more and exited: those events never came.
    printed += 'done\r\n';
    now = { ...shell, running: false, exitCode: 2 };
    act(() => setStatus('connected'));
    await waitFor(() => expect(screen.getByTestId('terminal-status-sh').textContent).toBe('exit 2'));
    expect(core.callsOf('terminal.output')).toEqual([{ id: 'sh' }, { id: 'sh' }]);
  }, 30_000);

  it('keeps the theme the user picked when the saved settings arrive after the click', async () => {
    const { core } = shellCore();
    let answer!: () => void;
    const answered = new Promise<void>((r) => (answer = r));
    core.on('ui.settings.get', async () => {
      await answered;
      return { theme: 'light' };
    });
    core.on('ui.settings.set', () => ({ theme: 'dark' }));
    core.render(<App />);
    await screen.findByTestId('project-path');
    fireEvent.click(screen.getByTestId('nav-settings'));
    fireEvent.click(await screen.findByTestId('theme-dark'));
    await waitFor(() => expect(document.documentElement.classList.contains('dark')).toBe(true));
    answer();
    await waitFor(() => expect(core.callsOf('ui.settings.get').length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    expect((screen.getByTestId('theme-dark') as HTMLInputElement).checked).toBe(true);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(core.callsOf('ui.settings.set')).toEqual([{ theme: 'dark' }]);
    document.documentElement.classList.remove('dark');
  });
});
