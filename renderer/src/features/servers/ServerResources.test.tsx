import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeCore } from '../../testing/fakeCore';
import { ServerResources } from './ServerResources';

afterEach(cleanup);

const resources = (subscribed: string[] = []) => ({ resources: [{ uri: 'notes://today', name: 'today' }, { uri: 'notes://week', name: 'week' }], templates: [{ uriTemplate: 'notes://{day}', name: 'day' }], subscribed });

describe('ServerResources: watching a resource', () => {
  it('subscribes on "watch", shows the change the server announces, and unsubscribes', async () => {
    const core = new FakeCore({ 'mcp.resources': () => resources(), 'mcp.resource.subscribe': () => ({}), 'mcp.resource.unsubscribe': () => ({}) });
    core.render(<ServerResources server="notes" />);
    const box = (await screen.findByRole('checkbox', { name: 'Watch notes://today' })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    expect(core.callsOf('mcp.resource.subscribe')).toEqual([{ server: 'notes', uri: 'notes://today' }]);

    act(() => core.emit('mcp.resource.updated', { server: 'notes', uri: 'notes://today' }));
    act(() => core.emit('mcp.resource.updated', { server: 'other', uri: 'notes://week' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/^changed at /);
    expect(screen.getAllByRole('status')).toHaveLength(1);

    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(false));
    expect(core.callsOf('mcp.resource.unsubscribe')).toEqual([{ server: 'notes', uri: 'notes://today' }]);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows what the hub already watches, and says why a watch failed', async () => {
    const core = new FakeCore({
      'mcp.resources': () => resources(['notes://week']),
      'mcp.resource.subscribe': () => {
        throw new Error('MCP server "notes" does not offer resource subscriptions (its resources can still be read)');
      },
    });
    core.render(<ServerResources server="notes" />);
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Watch notes://week' }) as HTMLInputElement).checked).toBe(true));
    const today = screen.getByRole('checkbox', { name: 'Watch notes://today' }) as HTMLInputElement;
    fireEvent.click(today);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not watch notes://today: MCP server "notes" does not offer resource subscriptions');
    expect(today.checked).toBe(false);
    // Templates are listed but cannot be watched.
    expect(screen.getByText('day')).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
  });
});
