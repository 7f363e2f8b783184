import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '../../../../electron/contract/index';
import { ProjectFacts } from './ProjectFacts';

afterEach(cleanup);

const base: ProjectSummary = { path: '/p/new', key: 'k', name: 'new', git: true, markers: [], runners: ['bash', 'git'] };

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
});
