import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { ProjectFacts } from './ProjectFacts';

afterEach(cleanup);

const base: ProjectSummary = { path: '/p/new', key: 'k', name: 'new', git: true, markers: [], runners: ['bash', 'git'] };

/** The facts as the app shows them: new facts come down when the core opens the project again (project.opened). */
function shown(core: FakeCore, first: ProjectSummary): { reopen: (p: ProjectSummary) => void } {
  let set!: (p: ProjectSummary) => void;
  function Facts() {
    const [p, setP] = useState(first);
    set = setP;
    return <ProjectFacts project={p} />;
  }
  core.render(<Facts />);
  return { reopen: (p) => act(() => set(p)) };
}

describe('ProjectFacts', () => {
  it('a new folder reads in words, not as an internal term ("no marker files")', () => {
    render(<ProjectFacts project={base} />);
    const markers = screen.getByTestId('project-markers').textContent ?? '';
    expect(markers).toMatch(/^none yet \(such as package\.json, pyproject\.toml or Cargo\.toml\)/);
    expect(screen.getByTestId('project-facts').textContent).not.toMatch(/marker/i);
  });

  it('lists the toolchain files it found', () => {
    render(<ProjectFacts project={{ ...base, markers: ['pyproject.toml'], runners: ['uv', 'bash', 'git'] }} />);
    expect(screen.getByTestId('project-markers').textContent).toBe('pyproject.toml');
  });

  it('a folder without git: one button makes it a repository; the facts then say its files are the first commit', async () => {
    const plain = { ...base, git: false, runners: ['bash'] };
    const core = new FakeCore({ 'project.makeRepository': () => ({ project: { ...plain, git: true }, committed: 3, held: [] }) });
    const view = shown(core, plain);
    expect(screen.getByTestId('project-git').textContent).toContain('not a git repository: a run here commits nothing');
    fireEvent.click(screen.getByTestId('make-repository'));
    await waitFor(() => expect((screen.getByTestId('make-repository') as HTMLButtonElement).disabled).toBe(false));
    expect(core.callsOf('project.makeRepository')).toEqual([{ path: '/p/new' }]);
    // The core opens the project again (project.opened): the app passes the new facts down.
    view.reopen({ ...plain, git: true });
    await waitFor(() => expect(screen.getByTestId('project-git').textContent).toBe('a git repository, made here: the files that were here are its first commit'));
  });

  it('names what held the first commit back, and says what a refusal said', async () => {
    const plain = { ...base, git: false, runners: ['bash'] };
    let refuse = true;
    const core = new FakeCore({
      'project.makeRepository': () => {
        if (refuse) throw new Error('/p/new is a git repository already');
        return { project: { ...plain, git: true }, committed: 0, held: ['node_modules', '.env'] };
      },
    });
    const view = shown(core, plain);
    fireEvent.click(screen.getByTestId('make-repository'));
    expect((await screen.findByRole('alert')).textContent).toContain('The repository was not made: /p/new is a git repository already');
    refuse = false;
    fireEvent.click(screen.getByTestId('make-repository'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect((screen.getByTestId('make-repository') as HTMLButtonElement).disabled).toBe(false));
    view.reopen({ ...plain, git: true });
    expect((await screen.findByTestId('make-repository-held')).textContent).toContain('its files are not committed: node_modules, .env are here and no .gitignore leaves them out');
  });
});
