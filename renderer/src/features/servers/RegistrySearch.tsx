import { useEffect, useRef, useState } from 'react';
import type { McpBundleInfo, McpConfigEntry, McpRegistryServer } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { InstallFields, type InstallQuestion } from './InstallFields';

const input = 'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:bg-slate-900';

/**
 * Search the official MCP Registry and add a result as a server: pick how it runs (a package, a remote or
 * a `.mcpb` bundle, which the core downloads and checks against the registry's sha256 first), answer what
 * it needs (secrets go to the keychain). "More results" appends the registry's next page. It arrives
 * disabled; its first enable shows the exact command and asks for trust.
 */
export function RegistrySearch({ onInstalled, onClose }: { onInstalled: (entry: McpConfigEntry) => void; onClose: () => void }) {
  const client = useClient();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<McpRegistryServer[] | null>(null);
  const [registry, setRegistry] = useState('');
  /** The registry's cursor for the page after the last one shown, and the query those pages answer. */
  const [next, setNext] = useState<{ cursor: string; query: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  /** A chosen bundle, downloaded and checked (null while that happens). */
  const [bundle, setBundle] = useState<McpBundleInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<{ server: McpRegistryServer; option: number } | null>(null);
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const first = useRef<HTMLInputElement>(null);
  /** The latest choice: a bundle download that ends after another choice is dropped. */
  const choice = useRef(0);
  useEffect(() => first.current?.focus(), []);

  const search = async () => {
    setBusy(true);
    setError(null);
    setChosen(null);
    try {
      const r = await client.request('mcp.registry.search', { query });
      setResults(r.servers);
      setRegistry(r.registry);
      setNext(r.nextCursor ? { cursor: r.nextCursor, query } : null);
    } catch (e) {
      setResults(null);
      setNext(null);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const more = async () => {
    if (!next) return;
    setLoadingMore(true);
    setError(null);
    try {
      const r = await client.request('mcp.registry.search', { query: next.query, cursor: next.cursor });
      setResults((prev) => {
        const have = new Set((prev ?? []).map((s) => s.name));
        return [...(prev ?? []), ...r.servers.filter((s) => !have.has(s.name))];
      });
      setNext(r.nextCursor ? { cursor: r.nextCursor, query: next.query } : null);
    } catch (e) {
      setError(`More results could not be loaded: ${(e as Error).message}`);
    } finally {
      setLoadingMore(false);
    }
  };
  const choose = async (server: McpRegistryServer, index: number) => {
    setChosen({ server, option: index });
    setName(server.suggestedName);
    setValues({});
    setBundle(null);
    setError(null);
    const mine = ++choice.current;
    const o = server.options[index];
    if (o?.kind !== 'mcpb') return setBusy(false); // (a download of an earlier choice may be under way)
    setBusy(true);
    try {
      const info = await client.request('mcp.registry.bundle', { option: o });
      if (mine === choice.current) setBundle(info);
    } catch (e) {
      if (mine !== choice.current) return;
      setChosen(null);
      setError(`The bundle of ${server.title ?? server.name} cannot be installed: ${(e as Error).message}`);
    } finally {
      if (mine === choice.current) setBusy(false);
    }
  };
  const install = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      const entry = await client.request('mcp.registry.install', { name, option: chosen.server.options[chosen.option]!, values, description: chosen.server.description.slice(0, 500) });
      onInstalled(entry);
    } catch (e) {
      setError(`Adding ${name} failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const option = chosen ? chosen.server.options[chosen.option] : undefined;
  // What the chosen way asks for: a package's env vars and headers, or the downloaded bundle's user_config.
  const questions: InstallQuestion[] | null =
    option?.kind === 'mcpb'
      ? bundle && bundle.userConfig.map((f) => ({ key: f.key, title: f.title, description: f.description, required: f.required, secret: f.sensitive, multiple: f.multiple, default: f.default }))
      : (option?.inputs.map((q) => ({ key: q.key, title: q.key, description: q.description, required: q.required, secret: q.secret, default: q.default })) ?? null);

  return (
    <section aria-labelledby="registry-h" className="flex max-w-2xl flex-col gap-3" data-testid="registry-search" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <h3 id="registry-h" className="text-lg font-semibold">Find a server in the MCP Registry</h3>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label htmlFor="registry-query" className="sr-only">Search the MCP Registry</label>
        <input id="registry-query" ref={first} className={input} placeholder="e.g. github, postgres, weather" value={query} onChange={(e) => setQuery(e.target.value)} data-testid="registry-query" />
        <Button type="submit" variant="primary" disabled={busy} data-testid="registry-submit">{busy && !chosen ? 'Searching…' : 'Search'}</Button>
      </form>
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      {results && !results.length ? <EmptyState title="Nothing found" testId="registry-empty">No server in {registry} matches “{query}”.</EmptyState> : null}
      {results?.length ? (
        <ul className="flex flex-col gap-2" aria-label="Registry results" data-testid="registry-results">
          {results.map((s) => (
            <li key={s.name} className="rounded border border-slate-200 p-2 text-sm dark:border-slate-800" data-testid={`registry-result-${s.suggestedName}`}>
              <p className="font-medium">{s.title ?? s.name} <span className="font-mono text-xs font-normal text-slate-600 dark:text-slate-400">{s.name}{s.version ? ` ${s.version}` : ''}</span></p>
              {s.description ? <p className="text-slate-700 dark:text-slate-300">{s.description}</p> : null}
              {s.repository ? <p className="truncate text-xs text-slate-600 dark:text-slate-400">{s.repository}</p> : null}
              <div className="mt-1 flex flex-wrap gap-1">
                {s.options.length ? (
                  s.options.map((o, i) => (
                    <Button key={o.label} className="text-xs" aria-pressed={chosen?.server === s && chosen.option === i} onClick={() => void choose(s, i)} data-testid={`registry-option-${s.suggestedName}-${i}`}>
                      Add: {o.label}
                    </Button>
                  ))
                ) : (
                  <span className="text-xs text-slate-600 dark:text-slate-400">No package or remote Erasmus can run.</span>
                )}
              </div>
              {chosen?.server === s && option?.kind === 'mcpb' && !bundle ? (
                <p className="mt-2 text-xs" role="status" data-testid="registry-bundle-loading">Downloading the bundle and checking its sha256…</p>
              ) : null}
              {chosen?.server === s && option && questions ? (
                <form
                  className="mt-2 flex flex-col gap-2 border-t border-slate-200 pt-2 dark:border-slate-800"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void install();
                  }}
                  data-testid="registry-install-form"
                >
                  <div className="flex flex-col gap-0.5">
                    <label htmlFor="registry-name" className="text-sm font-medium">Name</label>
                    <input id="registry-name" className={input} value={name} onChange={(e) => setName(e.target.value)} data-testid="registry-name" />
                  </div>
                  {option.kind === 'mcpb' && bundle ? (
                    <div className="flex flex-col gap-1" data-testid="registry-bundle-info">
                      <p className="font-medium">{bundle.displayName} {bundle.version}{bundle.author ? <span className="font-normal"> by {bundle.author}</span> : null}</p>
                      <p className="text-xs">Downloaded and matching the registry's sha256. A {bundle.serverType} server; it runs:</p>
                      <pre className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100" data-testid="registry-bundle-command">{[bundle.command, ...bundle.args].join(' ')}</pre>
                      {bundle.tools.length ? <p className="text-xs">Tools it declares: {bundle.tools.map((t) => <code key={t} className="mr-1 font-mono">{t}</code>)}</p> : null}
                    </div>
                  ) : null}
                  <InstallFields idPrefix="registry" questions={questions} values={values} onChange={(k, v) => setValues((x) => ({ ...x, [k]: v }))} />
                  <p className="text-xs text-slate-600 dark:text-slate-400">It is added disabled: enabling it shows the exact command for you to trust first.</p>
                  <div className="flex gap-2">
                    <Button type="submit" variant="primary" disabled={busy || !name.trim()} data-testid="registry-install">{busy ? 'Adding…' : 'Add server'}</Button>
                    <Button variant="ghost" onClick={() => setChosen(null)}>Cancel</Button>
                  </div>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {next && results ? (
        <div>
          <Button onClick={() => void more()} disabled={loadingMore} data-testid="registry-more">{loadingMore ? 'Loading more…' : 'More results'}</Button>
        </div>
      ) : null}
      <div>
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </div>
    </section>
  );
}
