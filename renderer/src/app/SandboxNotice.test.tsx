import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SandboxNotice } from './SandboxNotice';

describe('SandboxNotice', () => {
  it('says so when runner commands have no sandbox, with the reason and where to look', () => {
    render(<SandboxNotice sandbox={{ available: false, detail: 'bubblewrap is not installed (apt-get install bubblewrap): every command that is not read-only asks' }} />);
    const notice = screen.getByTestId('status-no-sandbox');
    expect(notice.textContent).toMatch(/^Not sandboxed: commands that are not read-only ask first/);
    expect(notice.textContent).toContain('bubblewrap is not installed (apt-get install bubblewrap)');
    expect(notice.getAttribute('title')).toMatch(/erasmus doctor/);
    expect(notice.getAttribute('role')).toBe('status');
  });

  it('names the sandbox when there is one, and shows nothing before the core has said', () => {
    const { container, rerender } = render(<SandboxNotice sandbox={{ available: true, detail: 'Linux: commands run in bubblewrap' }} />);
    expect(screen.getByTestId('status-sandbox').textContent).toBe('Sandboxed (bubblewrap)');
    expect(screen.getByTestId('status-sandbox').getAttribute('title')).toBe('Linux: commands run in bubblewrap');
    rerender(<SandboxNotice sandbox={{ available: true, detail: 'macOS: commands run in Seatbelt (sandbox-exec)' }} />);
    expect(screen.getByTestId('status-sandbox').textContent).toBe('Sandboxed (Seatbelt)');
    rerender(<SandboxNotice sandbox={undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('on Windows says plainly that commands are not sandboxed', () => {
    const { container } = render(<SandboxNotice sandbox={{ available: false, detail: 'Windows: commands are not sandboxed (Erasmus has no sandbox on Windows); every command that is not read-only asks' }} />);
    expect(container.querySelector('[data-testid="status-no-sandbox"]')!.textContent).toContain('Windows: commands are not sandboxed');
  });
});
