import { useEffect, useRef, useState } from 'react';
import { useClient } from '../../api/context';
import { useEvent } from '../../api/useEvent';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorBanner } from '../../ui/ErrorBanner';
import type { McpConfigEntry } from '../../../../electron/contract/index';
import { AddServerForm } from './AddServerForm';
import { BundleInstall } from './BundleInstall';
import { RegistrySearch } from './RegistrySearch';
import { Catalog } from './Catalog';
import { ImportDialog } from './ImportDialog';
import { ServerControls } from './ServerControls';
import { ServerDetails } from './ServerDetails';
import { ServerRow } from './ServerRow';
import { logOf, withStatus, withStderr, type ServersState } from './serversState';

/**
 * The MCP hub's servers: status live from `mcp.server.status`, details, stderr, restart and config
 * reload; add by form, import from another app, enable / disable / remove / trust (mcp/config.json).
 */
export function ServersView() {
  const client = useClient();
  const [state, setState] = useState<ServersState>({ servers: [], stderr: {} });
  const [issues, setIssues] = useState<Array<{ file: string; entry?: string; message: string }>>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pane, setPane] = useState<'details' | 'add' | 'import' | 'registry' | 'bundle'>('details');
  const [entries, setEntries] = useState<McpConfigEntry[]>([]);
  const [configFile, setConfigFile] = useState('mcp/config.json');
  /** The list was read at least once: before that (or when reading failed) "none configured" would be false. */
  const [listed, setListed] = useState(false);
  const loadEntries = () =>
    client.request('mcp.config.entries', {}).then(
      (r) => {
        setEntries(r.entries);
        setConfigFile(r.file);
      },
      (e: Error) => setError(`Could not read the server list: ${e.message}`),
    );
  /** After an edit: the hub's servers as they are now (removed ones gone) and the config's entries. */
  const refresh = async () => {
    const r = await client.request('mcp.servers', {});
    setState((s) => r.servers.reduce(withStatus, { ...s, servers: [] }));
    setIssues(r.issues);
    await loadEntries();
  };
  useEffect(() => {
    void loadEntries();
  }, [client]);
  useEffect(() => {
    client.request('mcp.servers', {}).then(
      (r) => {
        setState((s) => r.servers.reduce(withStatus, s));
        setListed(true);
        setIssues(r.issues);
      },
      (e: Error) => setError(`Could not list the servers: ${e.message}`),
    );
  }, [client]);
  // The config may change outside this view (an editor, the CLI): the hub reconnects and says so; the
  // entries (disabled, trusted) are read again shortly after a burst of status changes.
  const entriesTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(entriesTimer.current), []);
  useEvent('mcp.server.status', (st) => {
    setState((s) => withStatus(s, st));
    clearTimeout(entriesTimer.current);
    entriesTimer.current = setTimeout(() => void loadEntries(), 300);
  });
  useEvent('mcp.stderr', ({ server, text }) => setState((s) => withStderr(s, server, text)));

  const act = async (what: string, fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(`${what} failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const reload = () =>
    act('Reloading the config', async () => {
      const r = await client.request('mcp.reload', {});
      setState((s) => ({ ...r.servers.reduce(withStatus, { ...s, servers: [] }) }));
      setIssues(r.issues);
      await loadEntries();
    });
  const server = state.servers.find((s) => s.name === selected) ?? null;

  return (
    <div className="flex h-full min-h-0 gap-4" data-testid="servers-view">
      <div className="flex w-80 shrink-0 flex-col gap-2 overflow-auto">
        <div className="flex items-center gap-2">
          <h2 className="flex-1 font-semibold">MCP servers</h2>
          <Button onClick={() => void reload()} disabled={busy} data-testid="servers-reload">Reload config</Button>
        </div>
        <div className="flex gap-2">
          <Button variant="primary" onClick={() => setPane('add')} aria-pressed={pane === 'add'} data-testid="servers-add">Add server…</Button>
          <Button onClick={() => setPane('import')} aria-pressed={pane === 'import'} data-testid="servers-import">Import…</Button>
        </div>
        <div className="flex gap-2">
          <Button onClick={() => setPane('registry')} aria-pressed={pane === 'registry'} data-testid="servers-registry">MCP Registry…</Button>
          <Button onClick={() => setPane('bundle')} aria-pressed={pane === 'bundle'} data-testid="servers-bundle">Bundle (.mcpb)…</Button>
        </div>
        <ErrorBanner message={error} onDismiss={() => setError(null)} />
        {issues.map((i, k) => <p key={k} role="alert" className="text-xs text-amber-700 dark:text-amber-400">{i.file}{i.entry ? ` (${i.entry})` : ''}: {i.message}</p>)}
        {state.servers.length === 0 && !listed ? null : state.servers.length === 0 ? (
          <EmptyState title="No MCP servers configured" testId="servers-empty">Add one with “Add server…”, import another app’s servers with “Import…”, or enable a suggested server below. They are kept in <code>{configFile}</code> (Claude Desktop’s format).</EmptyState>
        ) : (
          <nav aria-label="Servers" className="flex shrink-0 flex-col gap-0.5">
            {state.servers.map((s) => <ServerRow key={s.name} server={s} selected={pane === 'details' && s.name === selected} onSelect={() => (setSelected(s.name), setPane('details'))} />)}
          </nav>
        )}
        <Catalog enabledNames={new Set(state.servers.filter((s) => s.state !== 'disabled').map((s) => s.name))} disabledNames={new Set(state.servers.filter((s) => s.state === 'disabled').map((s) => s.name))} />
      </div>
      <div className="min-w-0 flex-1 overflow-auto">
        {pane === 'add' ? (
          <AddServerForm
            onCancel={() => setPane('details')}
            onAdded={(entry) => {
              setSelected(entry.name);
              setPane('details');
              void refresh();
            }}
          />
        ) : pane === 'registry' || pane === 'bundle' ? (
          (() => {
            // An install arrives disabled: its details open, where "Enable…" shows the command to trust.
            const installed = (entry: McpConfigEntry) => {
              setSelected(entry.name);
              setPane('details');
              void refresh();
            };
            return pane === 'registry' ? <RegistrySearch onClose={() => setPane('details')} onInstalled={installed} /> : <BundleInstall onClose={() => setPane('details')} onInstalled={installed} pathForFile={window.erasmus?.pathForFile} />;
          })()
        ) : pane === 'import' ? (
          <ImportDialog onClose={() => setPane('details')} onImported={() => void refresh()} />
        ) : server ? (
          <div className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="text-lg font-semibold">{server.name}</h3>
              <span className="text-sm text-slate-600 dark:text-slate-400">{server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : ''}{server.pid ? ` · pid ${server.pid}` : ''}{server.restarts ? ` · ${server.restarts} restarts` : ''}</span>
              <Button className="ml-auto" disabled={busy || server.state === 'disabled'} onClick={() => void act(`Restarting ${server.name}`, () => client.request('mcp.server.restart', { server: server.name }).then((st) => setState((s) => withStatus(s, st))))} data-testid="server-restart">Restart</Button>
            </div>
            <ServerControls
              key={server.name}
              entry={server.source === configFile ? entries.find((e) => e.name === server.name) : undefined}
              status={server}
              busy={busy}
              act={act}
              onChanged={() => void refresh()}
              onRemoved={() => {
                setSelected(null);
                void refresh();
              }}
            />
            {server.description ? <p className="text-sm">{server.description}</p> : null}
            {server.error ? <ErrorBanner message={server.error} /> : null}
            {server.source ? <p className="font-mono text-xs text-slate-600 dark:text-slate-400">from {server.source}</p> : null}
            <ServerDetails key={`${server.name}:${server.state}`} server={server} log={logOf(state, server)} />
          </div>
        ) : state.servers.length ? <EmptyState title="Select a server">Its tools, resources, prompts and stderr show here.</EmptyState> : null}
      </div>
    </div>
  );
}
