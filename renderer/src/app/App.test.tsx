import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '../../../electron/contract/index';
import { FakeCore } from '../testing/fakeCore';
import { App } from './App';

afterEach(cleanup);

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
});
