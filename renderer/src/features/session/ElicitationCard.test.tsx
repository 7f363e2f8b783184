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
  it('an Allow the core no longer waits for (the process that asked ended) is recorded "not asked any more", never "Allowed"', async () => {
    const core = new FakeCore({ 'mcp.elicitation.respond': () => ({ delivered: false }) });
    const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 's1', at: Date.now(), ...x } as never);
    e({ type: 'session_started', logPath: '/h/sessions/s1.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false });
    e({ type: 'tool_running', callId: 'c1', name: 'files__write_file', args: { path: 'bin/t.js' } });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', { id: 'old', server: 'files', message: 'Overwrite bin/t.js?', mode: 'form', requestedSchema: { type: 'object', properties: {} }, approval: { tool: 'write_file', action: 'Overwrite the existing file bin/t.js (5 bytes)', change: 'overwrite', path: 'bin/t.js' } });
    fireEvent.click(await screen.findByTestId('elicitation-accept'));
    await waitFor(() => expect(screen.queryByTestId('elicitation-card')).toBeNull());
    const q = core.services.sessions.get().byId.s1!.items.find((i) => i.kind === 'question');
    expect(q).toMatchObject({ id: 'old', answer: 'gone' });
    expect(q).not.toHaveProperty('waitedMs');
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

  it('an approval asked before a reload counts the wait from when it was asked, not from the reload (the call\'s run time is not the wait)', async () => {
    const core = new FakeCore({
      'mcp.elicitation.pending': () => ({ requests: [{ id: 'w9', server: 'files', message: 'Edit slug.js?', mode: 'form', requestedSchema: { type: 'object', properties: {} }, approval: { tool: 'edit_file', action: 'Edit slug.js (one replacement)', change: 'overwrite', path: 'slug.js' }, waitedMs: 40_000 }] }),
      'mcp.elicitation.respond': () => ({ delivered: true }),
    });
    const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 's1', at: Date.now(), ...x } as never);
    e({ type: 'session_started', logPath: '/h/sessions/s1.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false });
    e({ type: 'tool_running', callId: 'c1', name: 'files__edit_file', args: { path: 'slug.js' } });
    core.render(<Elicitations />);
    await waitFor(() => expect(core.services.sessions.get().byId.s1?.items.some((i) => i.kind === 'tool')).toBe(true));
    fireEvent.click(await screen.findByTestId('elicitation-accept'));
    await waitFor(() => expect(core.services.sessions.get().byId.s1!.items.some((i) => i.kind === 'question')).toBe(true));
    const items = core.services.sessions.get().byId.s1!.items;
    const q = items.find((i) => i.kind === 'question');
    const tool = items.find((i) => i.kind === 'tool');
    expect(q && q.kind === 'question' ? q.waitedMs : undefined).toBeGreaterThanOrEqual(40_000);
    expect(q && q.kind === 'question' ? q.waitedMs : undefined).toBeLessThan(50_000);
    expect(tool && tool.kind === 'tool' ? tool.waitedMs : undefined).toBeGreaterThanOrEqual(40_000);
  });

  it('a built-in server\'s yes/no question is an approval: the action in words, the diff of an overwrite, Allow / Deny and no pre-ticked form; Escape denies', async () => {
    const core = new FakeCore({ 'mcp.elicitation.respond': () => ({ delivered: true }) });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', {
      id: 'w1',
      server: 'files',
      message: 'Overwrite the existing file src/counter.mjs (405 bytes). Allow?',
      mode: 'form',
      requestedSchema: { type: 'object', properties: {} },
      approval: { tool: 'write_file', action: 'Overwrite the existing file src/counter.mjs (405 bytes)', change: 'overwrite', path: 'src/counter.mjs', before: 'let n = 0;\nexport const inc = () => n++;\n', content: 'let n = 0;\nexport const inc = () => ++n;\n' },
    });
    const card = await screen.findByTestId('elicitation-card');
    expect(screen.getByTestId('approval-action').textContent).toBe('Overwrite the existing file src/counter.mjs (405 bytes)');
    expect(card.textContent).toContain('asked by Erasmus’s files toolset');
    const diff = screen.getByTestId('approval-diff').textContent!;
    expect(diff).toContain('- export const inc = () => n++;');
    expect(diff).toContain('+ export const inc = () => ++n;');
    expect(diff).toContain('  let n = 0;');
    expect(card.querySelector('input[type="checkbox"]')).toBeNull();
    expect(screen.getByTestId('elicitation-accept').textContent).toBe('Allow');
    expect(screen.getByTestId('elicitation-decline').textContent).toBe('Deny');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    // Nothing to always allow where the core offers no scope.
    expect(screen.queryByTestId('elicitation-always-run')).toBeNull();
    expect(screen.queryByTestId('elicitation-always-project')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('elicitation-accept'));
    fireEvent.keyDown(screen.getByTestId('elicitation-accept'), { key: 'Escape' });
    await waitFor(() => expect(core.callsOf('mcp.elicitation.respond')).toEqual([{ id: 'w1', action: 'decline' }]));
  });

  it('a command approval shows the command as it runs, the folder, the sandbox and why', async () => {
    const core = new FakeCore({ 'mcp.elicitation.respond': () => ({ delivered: true }) });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', {
      id: 'c1',
      server: 'runners',
      message: 'Run this command in /p?',
      mode: 'form',
      requestedSchema: { type: 'object', properties: {} },
      approval: { tool: 'bash', action: 'Run node -e "1"', change: 'command', command: 'node -e "1"', cwd: '/p', sandbox: 'It runs in the sandbox: it can write only in /p; no network.', reasons: ['inline code (node -e)'], grant: 'commands.sandboxed' },
      alwaysScopes: ['run', 'project'],
    });
    expect((await screen.findByTestId('approval-command')).textContent).toBe('node -e "1"');
    expect(screen.getByText(/Will run in \/p/)).toBeTruthy();
    expect(screen.getByTestId('approval-sandbox').textContent).toContain('no network');
    expect(screen.getByTestId('approval-reasons').textContent).toContain('inline code');
    // "Always allow", its scope in words, beside Allow and Deny.
    expect(screen.getByTestId('elicitation-always-project').textContent).toBe('Always allow running commands in the sandbox in this project');
    expect(screen.getByTestId('elicitation-always-run').textContent).toBe('Always allow running commands in the sandbox in this project for this run');
    fireEvent.click(screen.getByTestId('elicitation-always-run'));
    await waitFor(() => expect(core.callsOf('mcp.elicitation.respond')).toEqual([{ id: 'c1', action: 'accept', always: 'run' }]));
  });

  it('a network command offers "Allow <host>": the ticked host joins the project\'s allowed hosts before the answer', async () => {
    const order: string[] = [];
    const core = new FakeCore({
      'settings.runners.set': (p) => (order.push('set'), { project: '/p', file: '/p/.erasmus/settings.json', review: true, rules: [], allowedHosts: (p as { allowHosts: string[] }).allowHosts }),
      'mcp.elicitation.respond': () => (order.push('respond'), { delivered: true }),
    });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', {
      id: 'n1',
      server: 'runners',
      message: 'Run this command in /p?',
      mode: 'form',
      requestedSchema: { type: 'object', properties: {} },
      approval: { tool: 'npm_install', action: 'Run npm install', change: 'command', command: 'npm install', cwd: '/p', sandbox: "It runs in the sandbox: … its network reaches only this project's allowed hosts (none yet)", reasons: ['npm uses the network'], hosts: ['registry.npmjs.org'] },
    });
    fireEvent.click(await screen.findByTestId('allow-host-registry.npmjs.org'));
    fireEvent.click(screen.getByTestId('elicitation-accept'));
    await waitFor(() => expect(core.callsOf('mcp.elicitation.respond')).toEqual([{ id: 'n1', action: 'accept' }]));
    expect(core.callsOf('settings.runners.set')).toEqual([{ project: '/p', allowHosts: ['registry.npmjs.org'] }]);
    expect(order).toEqual(['set', 'respond']);
  });

  it('a user server\'s question with fields keeps its form (Submit / Decline / Cancel)', async () => {
    const core = new FakeCore({ 'mcp.elicitation.respond': () => ({ delivered: true }) });
    core.render(<Elicitations />);
    core.emit('mcp.elicitation.request', { id: 'f1', server: 'weather', message: 'Which city?', mode: 'form', requestedSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } } } });
    expect((await screen.findByTestId('elicitation-accept')).textContent).toBe('Submit');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(screen.getByLabelText(/City/)).toBeTruthy();
  });
});
