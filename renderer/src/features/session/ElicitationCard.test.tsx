import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeCore } from '../../testing/fakeCore';
import { Elicitations } from './Elicitations';

afterEach(cleanup);

describe('Elicitations', () => {
  it('shows a runner confirmation and sends the answer; a done event removes it', async () => {
    const core = new FakeCore({ 'mcp.elicitation.respond': () => ({ delivered: true }) });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', { id: 'e1', server: 'runners', message: 'Run this command?\n\n  rm -rf build', mode: 'form', requestedSchema: { type: 'object', properties: {} } });
    expect((await screen.findByTestId('elicitation-message')).textContent).toContain('rm -rf build');
    fireEvent.click(screen.getByTestId('elicitation-decline'));
    await waitFor(() => expect(screen.queryByTestId('elicitation-card')).toBeNull());
    expect(core.callsOf('mcp.elicitation.respond')).toEqual([{ id: 'e1', action: 'decline' }]);
    core.emit('mcp.elicitation.request', { id: 'e2', server: 's', message: 'still there?', mode: 'form' });
    await screen.findByTestId('elicitation-card');
    core.emit('mcp.elicitation.done', { id: 'e2', action: 'cancel' });
    await waitFor(() => expect(screen.queryByTestId('elicitation-card')).toBeNull());
  });

  it('asks for form fields, checks them, and sends typed content', async () => {
    const core = new FakeCore({ 'mcp.elicitation.respond': () => ({ delivered: true }) });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', { id: 'e3', server: 'everything', message: 'Who are you?', mode: 'form', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' }, age: { type: 'integer', title: 'Age' } }, required: ['name'] } });
    fireEvent.click(await screen.findByTestId('elicitation-accept'));
    expect((await screen.findByRole('alert')).textContent).toBe('Name is required.');
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText(/Age/), { target: { value: '36' } });
    fireEvent.click(screen.getByTestId('elicitation-accept'));
    await waitFor(() => expect(core.callsOf('mcp.elicitation.respond')).toEqual([{ id: 'e3', action: 'accept', content: { name: 'Ada', age: 36 } }]));
  });
  it('shows a question asked before this window connected (mcp.elicitation.pending), and answers it', async () => {
    const core = new FakeCore({
      'mcp.elicitation.pending': () => ({ requests: [{ id: 'early', server: 'files', message: 'Append 28 bytes to README.md?', mode: 'form', requestedSchema: { type: 'object', properties: {} } }] }),
      'mcp.elicitation.respond': () => ({ delivered: true }),
    });
    core.render(<Elicitations />);
    expect((await screen.findByTestId('elicitation-message')).textContent).toContain('README.md');
    fireEvent.click(screen.getByTestId('elicitation-decline'));
    await waitFor(() => expect(core.callsOf('mcp.elicitation.respond')).toEqual([{ id: 'early', action: 'decline' }]));
  });
});
