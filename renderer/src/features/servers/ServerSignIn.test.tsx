import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { ServerDetails } from './ServerDetails';

afterEach(cleanup);

const status = (over: Partial<McpServerStatus> = {}): McpServerStatus => ({ name: 'linear', transport: 'http', state: 'starting', stderrTail: [], restarts: 0, tools: 0, ...over });

describe('ServerDetails sign-in', () => {
  it('offers "Sign in" with the authorization page while the server waits for OAuth sign-in', () => {
    const core = new FakeCore({});
    core.render(<ServerDetails server={status({ signInUrl: 'https://auth.example.com/authorize?client_id=x' })} log={[]} />);
    const link = screen.getByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('href')).toBe('https://auth.example.com/authorize?client_id=x');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('shows no link without a sign-in, and none for a page that is not http(s)', () => {
    const core = new FakeCore({});
    core.render(<ServerDetails server={status({ signInUrl: 'javascript:alert(1)' })} log={[]} />);
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    cleanup();
    core.render(<ServerDetails server={status()} log={[]} />);
    expect(screen.queryByTestId('server-sign-in')).toBeNull();
  });
});
