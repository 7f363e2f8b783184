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
});
