import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SandboxNotice } from './SandboxNotice';

describe('SandboxNotice', () => {
  it('says so when runner commands have no sandbox, with the reason and where to look', () => {
    render(<SandboxNotice sandbox={{ available: false, detail: 'bubblewrap is not installed (apt-get install bubblewrap): every command that is not read-only asks' }} />);
    const notice = screen.getByTestId('status-no-sandbox');
    expect(notice.textContent).toMatch(/^No sandbox: commands that are not read-only ask first/);
    expect(notice.textContent).toContain('bubblewrap is not installed (apt-get install bubblewrap)');
    expect(notice.getAttribute('title')).toMatch(/erasmus doctor/);
    expect(notice.getAttribute('role')).toBe('status');
  });

  it('shows nothing with a sandbox, or before the core has said', () => {
    const { container, rerender } = render(<SandboxNotice sandbox={{ available: true, detail: 'bubblewrap' }} />);
    expect(container.innerHTML).toBe('');
    rerender(<SandboxNotice sandbox={undefined} />);
    expect(container.innerHTML).toBe('');
  });
});
