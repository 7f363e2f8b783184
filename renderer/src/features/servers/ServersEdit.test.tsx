import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError, type McpConfigEntry, type McpServerStatus } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { AddServerForm } from './AddServerForm';
import { ImportDialog } from './ImportDialog';
import { ServersView } from './ServersView';

afterEach(cleanup);

const entry = (over: Partial<McpConfigEntry> = {}): McpConfigEntry => ({ name: 'memory', transport: 'stdio', command: 'node', args: ['m.js'], envKeys: [], headerKeys: [], disabled: false, trusted: true, ...over });
const status = (over: Partial<McpServerStatus> = {}): McpServerStatus => ({ name: 'memory', transport: 'stdio', state: 'ready', source: '/h/mcp/config.json', stderrTail: [], restarts: 0, tools: 2, ...over });

describe('AddServerForm', () => {
  it('sends a stdio server with args per line and a secret as a ${secret:NAME} reference', async () => {
    const core = new FakeCore({ 'mcp.server.add': ({ name }) => entry({ name }) });
    let added = '';
    core.render(<AddServerForm onAdded={(e) => (added = e.name)} onCancel={() => {}} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' gh ' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'npx' } });
    fireEvent.change(screen.getByLabelText('Arguments'), { target: { value: '-y\n@modelcontextprotocol/server-github\n' } });
    fireEvent.click(screen.getByTestId('server-env-add'));
    fireEvent.change(screen.getByLabelText('Environment variables 1 name'), { target: { value: 'GITHUB_TOKEN' } });
    fireEvent.click(screen.getByLabelText('secret'));
    fireEvent.change(screen.getByLabelText('Environment variables 1 keychain name'), { target: { value: 'GH_PAT' } });
    fireEvent.click(screen.getByTestId('server-add-submit'));
    await waitFor(() => expect(added).toBe('gh'));
    expect(core.callsOf('mcp.server.add')).toEqual([
      { name: 'gh', enable: true, server: { transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: '${secret:GH_PAT}' } } },
    ]);
  });

  it("shows the core's refusal beside each field, and sends only the remote fields for a remote server", async () => {
    const core = new FakeCore({
      'mcp.server.add': () => {
        throw new RpcError(-32000, 'the server was not saved', { issues: [{ field: 'url', message: 'not an http:// or https:// URL: ftp://x' }, { field: 'headers.X-Api-Key', message: 'looks like a secret' }] });
      },
    });
    core.render(<AddServerForm onAdded={() => {}} onCancel={() => {}} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'web' } });
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'left over' } });
    fireEvent.click(screen.getByTestId('server-transport-sse'));
    expect(screen.queryByLabelText('Command')).toBeNull();
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'ftp://x' } });
    fireEvent.click(screen.getByTestId('server-headers-add'));
    fireEvent.change(screen.getByLabelText('Headers 1 name'), { target: { value: 'X-Api-Key' } });
    fireEvent.change(screen.getByLabelText('Headers 1 value'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByTestId('server-add-submit'));
    expect((await screen.findByTestId('server-url-error')).textContent).toBe('not an http:// or https:// URL: ftp://x');
    expect(screen.getByLabelText('URL').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('server-headers-error').textContent).toBe('X-Api-Key: looks like a secret');
    expect(screen.getByRole('alert').textContent).toContain('see the fields marked below');
    expect(core.callsOf('mcp.server.add')).toEqual([{ name: 'web', enable: true, server: { transport: 'sse', url: 'ftp://x', headers: { 'X-Api-Key': 'abc' } } }]);
  });
});

describe('ImportDialog', () => {
  it('lists what other apps have, lets the user pick, and never offers to overwrite an existing name', async () => {
    const core = new FakeCore({
      'mcp.import.discover': () => ({
        candidates: [
          {
            source: 'claude',
            file: '/u/.config/Claude/claude_desktop_config.json',
            issues: [{ file: '/u/.config/Claude/claude_desktop_config.json', entry: 'broken', message: 'needs a "command"' }],
            servers: [
              { name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', 'm'], envKeys: [], exists: true },
              { name: 'github', transport: 'stdio', command: 'npx', args: ['-y', 'gh'], envKeys: ['GITHUB_TOKEN'], exists: false },
              { name: 'remote', transport: 'http', args: [], url: 'https://x/mcp', envKeys: [], exists: false },
            ],
          },
        ],
      }),
      'mcp.import': ({ names }) => ({ added: names, skipped: [] }),
    });
    let imported: string[] = [];
    core.render(<ImportDialog onImported={(a) => (imported = a)} onClose={() => {}} />);
    const claude = await screen.findByTestId('import-source-claude');
    expect(claude.textContent).toContain('Claude Desktop');
    expect(claude.textContent).toContain('broken: needs a "command"');
    expect((screen.getByTestId('import-pick-memory') as HTMLInputElement).disabled).toBe(true);
    expect(within(claude).getByText(/already configured/)).toBeTruthy();
    expect(claude.textContent).toContain('env: GITHUB_TOKEN');
    expect((screen.getByTestId('import-submit') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('import-pick-github'));
    fireEvent.click(screen.getByTestId('import-pick-remote'));
    fireEvent.click(screen.getByTestId('import-submit'));
    expect((await screen.findByTestId('import-result')).textContent).toContain('Added github, remote');
    expect(core.callsOf('mcp.import')).toEqual([{ file: '/u/.config/Claude/claude_desktop_config.json', names: ['github', 'remote'] }]);
    expect(imported).toEqual(['github', 'remote']);
  });

  it('says so when no other app has a config', async () => {
    const core = new FakeCore({ 'mcp.import.discover': () => ({ candidates: [] }) });
    core.render(<ImportDialog onImported={() => {}} onClose={() => {}} />);
    expect((await screen.findByTestId('import-empty')).textContent).toContain('Claude Desktop');
  });
});

describe('ServersView controls', () => {
  it('asks for trust on the first enable, shows the command, then enables and shows its tools', async () => {
    let trusted = false;
    const core = new FakeCore({
      'mcp.servers': () => ({ servers: [status({ state: trusted ? 'ready' : 'disabled', tools: trusted ? 1 : 0 })], issues: [] }),
      'mcp.config.entries': () => ({ file: '/h/mcp/config.json', entries: [entry({ disabled: !trusted, trusted, command: 'npx', args: ['-y', '@x/server'], package: 'npm:@x/server', envKeys: ['X_KEY'] })] }),
      'mcp.catalog': () => ({ servers: [] }),
      'mcp.server.enable': ({ trust }) => {
        const preview = { id: 'memory', title: 'memory', description: '', package: 'npm:@x/server', command: 'npx', args: ['-y', '@x/server'], envKeys: ['X_KEY'], hash: 'abcdef0123456789abcdef', trusted: !!trust };
        if (!trust) return { enabled: false, preview };
        trusted = true;
        return { enabled: true, preview };
      },
      'mcp.tools': () => ({ tools: [{ server: 'memory', name: 'delete_all', qualifiedName: 'memory__delete_all', description: 'Deletes everything', inputSchema: {}, annotations: { destructiveHint: true }, alwaysAllow: false }] }),
    });
    core.render(<ServersView />);
    fireEvent.click(await screen.findByTestId('server-memory'));
    expect((await screen.findByTestId('server-untrusted')).textContent).toBe('not trusted yet');
    fireEvent.click(screen.getByTestId('server-enable'));
    const panel = await screen.findByTestId('server-trust-panel');
    expect(within(panel).getByTestId('trust-command').textContent).toBe('npx -y @x/server');
    expect(panel.textContent).toContain('npm:@x/server');
    expect(panel.textContent).toContain('X_KEY');
    // The panel takes the focus in an effect after it renders: found in the DOM, it may not have it yet (failed once under load).
    await waitFor(() => expect(document.activeElement).toBe(panel));
    fireEvent.click(within(panel).getByTestId('server-trust-confirm'));
    const tools = await screen.findByTestId('trust-tools');
    expect(tools.textContent).toContain('delete_all');
    expect(tools.textContent).toContain('destructive');
    expect(core.callsOf('mcp.server.enable')).toEqual([{ server: 'memory' }, { server: 'memory', trust: true }]);
    await waitFor(() => expect(screen.getByTestId('server-disable')).toBeTruthy());
  });

  it('removes after confirmation; a server from another file offers no edit controls', async () => {
    let removed = false;
    const core = new FakeCore({
      'mcp.servers': () => ({ servers: removed ? [status({ name: 'proj', source: '/p/.erasmus/mcp.json' })] : [status(), status({ name: 'proj', source: '/p/.erasmus/mcp.json' })], issues: [] }),
      'mcp.config.entries': () => ({ file: '/h/mcp/config.json', entries: removed ? [] : [entry()] }),
      'mcp.catalog': () => ({ servers: [] }),
      'mcp.server.remove': () => ((removed = true), {}),
      'mcp.tools': () => ({ tools: [] }),
    });
    core.render(<ServersView />);
    fireEvent.click(await screen.findByTestId('server-proj'));
    expect((await screen.findByTestId('server-not-editable')).textContent).toContain('/p/.erasmus/mcp.json');
    fireEvent.click(screen.getByTestId('server-memory'));
    fireEvent.click(await screen.findByTestId('server-remove'));
    expect(document.activeElement).toBe(screen.getByTestId('server-remove-confirm'));
    fireEvent.click(screen.getByTestId('server-remove-confirm'));
    await waitFor(() => expect(screen.queryByTestId('server-memory')).toBeNull());
    expect(core.callsOf('mcp.server.remove')).toEqual([{ server: 'memory' }]);
  });

  it('reads the entries again when the hub reports a server that changed outside the view', async () => {
    let entries: McpConfigEntry[] = [];
    const core = new FakeCore({
      'mcp.servers': () => ({ servers: [], issues: [] }),
      'mcp.config.entries': () => ({ file: '/h/mcp/config.json', entries }),
      'mcp.catalog': () => ({ servers: [] }),
    });
    core.render(<ServersView />);
    await screen.findByTestId('servers-empty');
    entries = [entry({ name: 'gh', disabled: true, trusted: false })];
    core.emit('mcp.server.status', status({ name: 'gh', state: 'disabled', tools: 0 }));
    fireEvent.click(await screen.findByTestId('server-gh'));
    expect((await screen.findByTestId('server-enable')).textContent).toBe('Enable…');
  });
});
