import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { McpConfigEntry } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { KeyValueRows } from './KeyValueRows';
import { emptyForm, issuesFor, issuesOf, toInput, type FieldIssue, type ServerFormState } from './serverForm';

const input = 'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:bg-slate-900';

function Field({ id, label, hint, errors, children }: { id: string; label: string; hint?: string; errors: string[]; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <label htmlFor={id} className="text-sm font-medium">{label}</label>
      {children}
      {hint ? <p className="text-xs text-slate-600 dark:text-slate-400">{hint}</p> : null}
      {errors.map((m, i) => <p key={i} id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400" data-testid={`${id}-error`}>{m}</p>)}
    </div>
  );
}

/**
 * Adds a server to ERASMUS_HOME/mcp/config.json: stdio (command, args, env, cwd) or remote (http, sse,
 * websocket: url, headers). The core checks the entry; what it refuses is shown beside each field.
 */
export function AddServerForm({ onAdded, onCancel }: { onAdded: (entry: McpConfigEntry) => void; onCancel: () => void }) {
  const client = useClient();
  const [f, setF] = useState<ServerFormState>(emptyForm);
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (patch: Partial<ServerFormState>) => setF((s) => ({ ...s, ...patch }));
  const stdio = f.transport === 'stdio';
  const errs = (field: string) => issuesFor(issues, field);
  const described = (id: string, field: string) => (errs(field).length ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});

  const submit = async () => {
    setBusy(true);
    setIssues([]);
    setError(null);
    try {
      const entry = await client.request('mcp.server.add', { name: f.name.trim(), server: toInput(f), enable: f.enable });
      onAdded(entry);
    } catch (e) {
      const found = issuesOf(e);
      setIssues(found);
      setError(found.length ? 'The server was not added: see the fields marked below.' : `The server was not added: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-labelledby="add-server-h"
      className="flex max-w-2xl flex-col gap-3"
      data-testid="add-server-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <h3 id="add-server-h" className="text-lg font-semibold">Add an MCP server</h3>
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      <Field id="server-name" label="Name" hint="Letters, digits, “.”, “_” and “-”; tools show as name__tool." errors={errs('name')}>
        <input id="server-name" ref={first} className={input} value={f.name} onChange={(e) => set({ name: e.target.value })} {...described('server-name', 'name')} />
      </Field>
      <fieldset className="flex flex-wrap gap-3 text-sm">
        <legend className="text-sm font-medium">Kind</legend>
        {(['stdio', 'http', 'sse', 'websocket'] as const).map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input type="radio" name="transport" value={t} checked={f.transport === t} onChange={() => set({ transport: t })} className="focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid={`server-transport-${t}`} />
            {t === 'stdio' ? 'Program (stdio)' : t === 'http' ? 'Remote (HTTP)' : t === 'sse' ? 'Remote (SSE)' : 'Remote (WebSocket)'}
          </label>
        ))}
      </fieldset>
      {stdio ? (
        <>
          <Field id="server-command" label="Command" hint="The program to start, e.g. npx, uvx, node or a full path." errors={errs('command')}>
            <input id="server-command" className={`${input} font-mono`} value={f.command} onChange={(e) => set({ command: e.target.value })} {...described('server-command', 'command')} />
          </Field>
          <Field id="server-args" label="Arguments" hint="One per line." errors={errs('args')}>
            <textarea id="server-args" rows={3} className={`${input} font-mono`} value={f.args} onChange={(e) => set({ args: e.target.value })} />
          </Field>
          <KeyValueRows label="Environment variables" idPrefix="server-env" keyPlaceholder="NAME" rows={f.env} onChange={(env) => set({ env })} errorId={errs('env').length ? 'server-env-error' : undefined} />
          {errs('env').map((m, i) => <p key={i} id="server-env-error" className="text-xs text-red-700 dark:text-red-400" data-testid="server-env-error">{m}</p>)}
          <Field id="server-cwd" label="Working folder (optional)" errors={errs('cwd')}>
            <input id="server-cwd" className={`${input} font-mono`} value={f.cwd} onChange={(e) => set({ cwd: e.target.value })} />
          </Field>
        </>
      ) : (
        <>
          <Field id="server-url" label="URL" hint={f.transport === 'websocket' ? 'ws:// or wss://' : 'http:// or https://'} errors={errs('url')}>
            <input id="server-url" className={`${input} font-mono`} value={f.url} onChange={(e) => set({ url: e.target.value })} {...described('server-url', 'url')} />
          </Field>
          <KeyValueRows label="Headers" idPrefix="server-headers" keyPlaceholder="Header-Name" rows={f.headers} onChange={(headers) => set({ headers })} errorId={errs('headers').length ? 'server-headers-error' : undefined} />
          {errs('headers').map((m, i) => <p key={i} id="server-headers-error" className="text-xs text-red-700 dark:text-red-400" data-testid="server-headers-error">{m}</p>)}
        </>
      )}
      <p className="text-xs text-slate-600 dark:text-slate-400">Secrets (API keys, tokens) never go in the config: mark the row “secret”, give the keychain name, and set the key in Settings → API keys. It is written as <code>{'${secret:NAME}'}</code>.</p>
      <Field id="server-description" label="Description (optional)" errors={errs('description')}>
        <input id="server-description" className={input} value={f.description} onChange={(e) => set({ description: e.target.value })} />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={f.enable} onChange={(e) => set({ enable: e.target.checked })} className="focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="server-enable-now" />
        {stdio ? 'Start it now (I trust this command)' : 'Connect now'}
      </label>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={busy} data-testid="server-add-submit">{busy ? 'Adding…' : 'Add server'}</Button>
        <Button variant="ghost" onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
