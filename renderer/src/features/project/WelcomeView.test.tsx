import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProjectSummary } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { WelcomeView } from './WelcomeView';

afterEach(cleanup);

const adder: ProjectSummary = { path: '/p/adder', key: 'adder-1', name: 'adder', git: true, markers: ['package.json'], runners: ['bash', 'git'] };

describe('WelcomeView', () => {
  it('opens a typed path and lists recent projects', async () => {
    const core = new FakeCore({ 'project.recent': () => ({ projects: [adder] }), 'project.open': ({ path }) => ({ ...adder, path }) });
    const onOpened = vi.fn();
    core.render(<WelcomeView onOpened={onOpened} />);
    await screen.findByText('/p/adder');
    fireEvent.change(screen.getByTestId('project-path'), { target: { value: '  /work/x  ' } });
    fireEvent.click(screen.getByTestId('open-path'));
    await waitFor(() => expect(onOpened).toHaveBeenCalledWith(expect.objectContaining({ path: '/work/x' })));
    fireEvent.click(screen.getByText('adder'));
    await waitFor(() => expect(onOpened).toHaveBeenCalledTimes(2));
    expect(core.callsOf('project.open')).toEqual([{ path: '/work/x' }, { path: '/p/adder' }]);
  });

  it('says why a folder could not be opened, and keeps the view usable', async () => {
    const core = new FakeCore({ 'project.recent': () => ({ projects: [] }), 'project.open': ({ path }) => Promise.reject(new Error(`${path} is not a folder`)) });
    core.render(<WelcomeView onOpened={() => {}} />);
    await screen.findByText(/No recent projects yet/);
    fireEvent.change(screen.getByTestId('project-path'), { target: { value: '/nope' } });
    fireEvent.click(screen.getByTestId('open-path'));
    expect((await screen.findByRole('alert')).textContent).toContain('Could not open /nope: /nope is not a folder');
    expect((screen.getByTestId('open-path') as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers no "Open folder…" in a browser, and falls back to the path field when the desktop has no dialog or no path for a drop', async () => {
    const core = new FakeCore({ 'project.recent': () => ({ projects: [] }), 'project.chooseFolder': () => ({ path: null, supported: false }) });
    const browser = core.render(<WelcomeView onOpened={() => {}} />);
    expect(screen.queryByTestId('choose-folder')).toBeNull();
    expect(screen.getByText(/Type the folder’s absolute path/)).toBeTruthy();
    browser.unmount();
    (window as { erasmus?: unknown }).erasmus = { send: () => {}, subscribe: () => () => {} };
    try {
      core.render(<WelcomeView onOpened={() => {}} />);
      fireEvent.click(screen.getByTestId('choose-folder'));
      expect((await screen.findByRole('status')).textContent).toMatch(/cannot show a folder dialog/);
    } finally {
      delete (window as { erasmus?: unknown }).erasmus;
    }
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('project-path')));
    const file = new File([''], 'my-project');
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [file] } });
    expect((await screen.findByRole('status')).textContent).toContain('“my-project”');
  });
});
