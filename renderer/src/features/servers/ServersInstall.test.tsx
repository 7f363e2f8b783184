import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError, type McpBundleInfo, type McpConfigEntry, type McpRegistryServer, type McpServerStatus } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { BundleInstall } from './BundleInstall';
import { RegistrySearch } from './RegistrySearch';
import { ServerRow } from './ServerRow';

afterEach(cleanup);

const entry = (over: Partial<McpConfigEntry> = {}): McpConfigEntry => ({ name: 'weather', transport: 'stdio', command: 'npx', args: [], envKeys: [], headerKeys: [], disabled: true, trusted: false, ...over });
const weather: McpRegistryServer = {
  name: 'io.github.acme/weather',
  suggestedName: 'weather',
  title: 'Acme Weather',
  description: 'Forecasts.',
  version: '1.4.2',
  options: [
    {
      kind: 'npm',
      label: 'npm @acme/weather-mcp@1.4.2',
      server: { transport: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.4.2'] },
      inputs: [{ key: 'WEATHER_API_KEY', where: 'env', description: 'Your Acme API key', required: true, secret: true, secretName: 'WEATHER_WEATHER_API_KEY' }],
    },
  ],
};

describe('RegistrySearch', () => {
  it('searches, lets the user pick how it runs, asks for its key in a password field, and adds it', async () => {
    const core = new FakeCore({ 'mcp.registry.search': () => ({ servers: [weather], registry: 'https://registry.modelcontextprotocol.io' }), 'mcp.registry.install': ({ name }) => entry({ name }) });
    let installed = '';
    core.render(<RegistrySearch onInstalled={(e) => (installed = e.name)} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Search the MCP Registry'), { target: { value: 'weather' } });
    fireEvent.click(screen.getByTestId('registry-submit'));
    await screen.findByText('Acme Weather', { exact: false });
    fireEvent.click(screen.getByTestId('registry-option-weather-0'));
    const key = screen.getByLabelText('WEATHER_API_KEY', { exact: false }) as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(screen.getByText(/Kept in the system keychain/)).toBeTruthy();
    fireEvent.change(key, { target: { value: 'wk-1' } });
    fireEvent.click(screen.getByTestId('registry-install'));
    await waitFor(() => expect(installed).toBe('weather'));
    expect(core.callsOf('mcp.registry.install')).toEqual([{ name: 'weather', option: weather.options[0], values: { WEATHER_API_KEY: 'wk-1' }, description: 'Forecasts.' }]);
  });

  it('appends the next page on "More results" and hides the button after the last page', async () => {
    const radar: McpRegistryServer = { name: 'io.github.sky/weather-radar', suggestedName: 'weather-radar', description: 'Rain radar.', options: [] };
    const core = new FakeCore({
      'mcp.registry.search': ({ cursor }) =>
        cursor === undefined ? { servers: [weather], registry: 'https://r.example', nextCursor: 'c-2' } : { servers: [weather, radar], registry: 'https://r.example' },
    });
    core.render(<RegistrySearch onInstalled={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Search the MCP Registry'), { target: { value: 'weather' } });
    fireEvent.click(screen.getByTestId('registry-submit'));
    await screen.findByText('Acme Weather', { exact: false });
    // The query typed after the search does not change which pages "More results" follows.
    fireEvent.change(screen.getByLabelText('Search the MCP Registry'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'More results' }));
    await screen.findByTestId('registry-result-weather-radar');
    expect(core.callsOf('mcp.registry.search')).toEqual([{ query: 'weather' }, { query: 'weather', cursor: 'c-2' }]);
    // Appended, a result already shown not repeated.
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('data-testid'))).toEqual(['registry-result-weather', 'registry-result-weather-radar']);
    expect(screen.queryByTestId('registry-more')).toBeNull();
  });

  it('downloads a .mcpb result, shows what it runs and asks for, and installs it with its settings', async () => {
    const bundleOption = { kind: 'mcpb' as const, label: 'mcpb echo.mcpb (1.2.0)', bundle: { url: 'https://r.example/echo.mcpb', sha256: 'ab'.repeat(32) }, inputs: [] };
    const echo: McpRegistryServer = { name: 'io.github.echo/weather-echo', suggestedName: 'weather-echo', title: 'Echo Weather', description: 'Echo.', options: [bundleOption] };
    const info: McpBundleInfo = { file: bundleOption.bundle.url, name: 'echo-bundle', displayName: 'Echo Bundle', version: '1.2.0', description: '', serverType: 'node', command: 'node', args: ['${__dirname}/server/index.mjs'], tools: ['whoami'], userConfig: [{ key: 'api_key', type: 'string', title: 'API key', description: 'Your key', required: true, sensitive: true, multiple: false }] };
    const core = new FakeCore({ 'mcp.registry.search': () => ({ servers: [echo], registry: 'https://r.example' }), 'mcp.registry.bundle': () => info, 'mcp.registry.install': ({ name }) => entry({ name }) });
    let installed = '';
    core.render(<RegistrySearch onInstalled={(e) => (installed = e.name)} onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('registry-submit'));
    fireEvent.click(await screen.findByTestId('registry-option-weather-echo-0'));
    expect((await screen.findByTestId('registry-bundle-command')).textContent).toBe('node ${__dirname}/server/index.mjs');
    expect(core.callsOf('mcp.registry.bundle')).toEqual([{ option: bundleOption }]);
    const key = screen.getByLabelText(/API key/) as HTMLInputElement;
    expect(key.type).toBe('password');
    fireEvent.change(key, { target: { value: 'ek-9' } });
    fireEvent.click(screen.getByTestId('registry-install'));
    await waitFor(() => expect(installed).toBe('weather-echo'));
    expect(core.callsOf('mcp.registry.install')).toEqual([{ name: 'weather-echo', option: bundleOption, values: { api_key: 'ek-9' }, description: 'Echo.' }]);
  });

  it("shows the core's refusal of a bundle whose sha256 does not match", async () => {
    const bundleOption = { kind: 'mcpb' as const, label: 'mcpb echo.mcpb', bundle: { url: 'https://r.example/echo.mcpb', sha256: '00'.repeat(32) }, inputs: [] };
    const core = new FakeCore({
      'mcp.registry.search': () => ({ servers: [{ name: 'io.github.echo/x', suggestedName: 'x', description: '', options: [bundleOption] }], registry: 'https://r.example' }),
      'mcp.registry.bundle': () => {
        throw new RpcError(-32000, `refused the bundle at https://r.example/echo.mcpb: it does not match the MCP Registry's sha256 (expected ${'00'.repeat(32)}, actual ${'ab'.repeat(32)}).`);
      },
    });
    core.render(<RegistrySearch onInstalled={() => {}} onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('registry-submit'));
    fireEvent.click(await screen.findByTestId('registry-option-x-0'));
    expect((await screen.findByRole('alert')).textContent).toContain(`expected ${'00'.repeat(32)}, actual ${'ab'.repeat(32)}`);
    expect(screen.queryByTestId('registry-install-form')).toBeNull();
    expect(core.callsOf('mcp.registry.install')).toEqual([]);
  });

  it('says plainly when the registry cannot be reached', async () => {
    const core = new FakeCore({
      'mcp.registry.search': () => {
        throw new RpcError(-32000, 'cannot reach the MCP Registry at https://registry.modelcontextprotocol.io (ENOTFOUND). Check the network connection and try again, or add the server by hand.');
      },
    });
    core.render(<RegistrySearch onInstalled={() => {}} onClose={() => {}} />);
    fireEvent.click(screen.getByTestId('registry-submit'));
    expect((await screen.findByRole('alert')).textContent).toContain('cannot reach the MCP Registry');
  });
});

describe('BundleInstall', () => {
  const info: McpBundleInfo = {
    file: '/b/echo.mcpb',
    name: 'echo-bundle',
    displayName: 'Echo Bundle',
    version: '1.2.0',
    description: 'Answers.',
    author: 'Test Author',
    serverType: 'node',
    command: 'node',
    args: ['${__dirname}/server/index.mjs'],
    tools: ['whoami'],
    userConfig: [
      { key: 'api_key', type: 'string', title: 'API key', description: 'Your key', required: true, sensitive: true, multiple: false },
      { key: 'units', type: 'string', title: 'Units', description: '', required: false, sensitive: false, multiple: false, default: 'metric' },
    ],
  };
  it('shows what the bundle is and runs before asking for its settings, then installs it', async () => {
    const core = new FakeCore({ 'mcp.bundle.inspect': () => info, 'mcp.bundle.install': () => ({ entry: entry({ name: 'echo-bundle' }), preview: { id: 'echo-bundle', title: 'echo-bundle', description: '', command: 'node', args: [], envKeys: [], hash: 'h', trusted: false } }) });
    let installed = '';
    core.render(<BundleInstall onInstalled={(e) => (installed = e.name)} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Bundle file'), { target: { value: '/b/echo.mcpb' } });
    fireEvent.click(screen.getByTestId('bundle-inspect'));
    expect((await screen.findByTestId('bundle-command')).textContent).toBe('node ${__dirname}/server/index.mjs');
    expect(screen.getByText(/Echo Bundle 1.2.0/).textContent).toContain('by Test Author');
    expect((screen.getByLabelText(/API key/) as HTMLInputElement).type).toBe('password');
    expect((screen.getByLabelText(/Units/) as HTMLInputElement).value).toBe('metric');
    fireEvent.change(screen.getByLabelText(/API key/), { target: { value: 'ek-1' } });
    fireEvent.click(screen.getByTestId('bundle-submit'));
    await waitFor(() => expect(installed).toBe('echo-bundle'));
    expect(core.callsOf('mcp.bundle.install')).toEqual([{ file: '/b/echo.mcpb', values: { api_key: 'ek-1' } }]);
  });

  it("shows the core's refusal of a bad file", async () => {
    const core = new FakeCore({
      'mcp.bundle.inspect': () => {
        throw new RpcError(-32000, '/b/x.zip has no manifest.json at its top level, so it is not an MCP bundle');
      },
    });
    core.render(<BundleInstall onInstalled={() => {}} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('Bundle file'), { target: { value: '/b/x.zip' } });
    fireEvent.click(screen.getByTestId('bundle-inspect'));
    expect((await screen.findByRole('alert')).textContent).toContain('has no manifest.json');
  });
});

describe('server icons', () => {
  it("shows a server's icon as the data: URL the core gives (no remote image in the page)", async () => {
    const core = new FakeCore({ 'mcp.icon': ({ src }) => ({ dataUrl: `data:image/png;base64,${btoa(src)}` }) });
    const st: McpServerStatus = { name: 'gh', transport: 'http', state: 'ready', stderrTail: [], restarts: 0, tools: 3, icons: [{ src: 'https://cdn.example/gh.png' }] };
    core.render(<ServerRow server={st} selected={false} onSelect={() => {}} />);
    const img = (await screen.findByTestId('mcp-icon')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${btoa('https://cdn.example/gh.png')}`);
    expect(img.getAttribute('alt')).toBe('');
    expect(core.callsOf('mcp.icon')).toEqual([{ src: 'https://cdn.example/gh.png' }]);
  });
});
