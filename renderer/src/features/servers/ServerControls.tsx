import { useState } from 'react';
import type { McpConfigEntry, McpServerStatus } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { TrustPanel, type Preview } from './TrustPanel';

/**
 * Enable, disable, remove and trust one server of ERASMUS_HOME/mcp/config.json. The first enable of an
 * untrusted program shows what it runs and needs "Trust and enable"; afterwards its tools are shown.
 */
export function ServerControls({ entry, status, onChanged, onRemoved, act, busy }: {
  entry: McpConfigEntry | undefined;
  status: McpServerStatus;
  onChanged: () => void;
  onRemoved: () => void;
  act: (what: string, fn: () => Promise<unknown>) => Promise<void>;
  busy: boolean;
}) {
  const client = useClient();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [started, setStarted] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  if (!entry)
    return <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="server-not-editable">{status.source ? `Configured in ${status.source}: edit that file to change it.` : 'Built into Erasmus.'}</p>;
  const name = entry.name;
  const enable = (trust?: boolean) =>
    act(`Enabling ${name}`, async () => {
      const r = await client.request('mcp.server.enable', { server: name, ...(trust ? { trust } : {}) });
      if (r.enabled) {
        setPreview(trust ? r.preview : null);
        setStarted(!!trust);
      } else setPreview(r.preview);
      onChanged();
    });
  const trustOnly = () =>
    act(`Trusting ${name}`, async () => {
      setPreview(await client.request('mcp.server.trust', { server: name }));
      setStarted(status.state === 'ready');
      onChanged();
    });
  const showPreview = () => act(`Showing ${name}`, async () => {
    setPreview(await client.request('mcp.server.preview', { server: name }));
    setStarted(status.state === 'ready');
  });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2" data-testid="server-controls">
        {entry.disabled ? (
          <Button variant="primary" disabled={busy} onClick={() => void enable()} data-testid="server-enable">Enable{entry.trusted ? '' : '…'}</Button>
        ) : (
          <Button disabled={busy} onClick={() => void act(`Disabling ${name}`, async () => (await client.request('mcp.server.disable', { server: name }), setPreview(null), onChanged()))} data-testid="server-disable">Disable</Button>
        )}
        {entry.transport === 'stdio' ? (
          entry.trusted ? (
            <Button variant="ghost" disabled={busy} onClick={() => void showPreview()} data-testid="server-show-command">What it runs</Button>
          ) : !entry.disabled ? (
            <Button disabled={busy} onClick={() => void showPreview()} data-testid="server-trust">Trust…</Button>
          ) : null
        ) : null}
        {!entry.trusted ? <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800" data-testid="server-untrusted">not trusted yet</span> : null}
        {confirmRemove ? (
          <span className="flex items-center gap-1 text-sm" role="group" aria-label={`Remove ${name}?`}>
            Remove {name} from the config?
            <Button variant="danger" disabled={busy} autoFocus onClick={() => void act(`Removing ${name}`, async () => (await client.request('mcp.server.remove', { server: name }), setConfirmRemove(false), onRemoved()))} data-testid="server-remove-confirm">Remove</Button>
            <Button variant="ghost" onClick={() => setConfirmRemove(false)}>Keep</Button>
          </span>
        ) : (
          <Button variant="ghost" className="ml-auto" disabled={busy} onClick={() => setConfirmRemove(true)} data-testid="server-remove">Remove…</Button>
        )}
      </div>
      {entry.error ? <p className="text-xs text-red-700 dark:text-red-300">{entry.error}</p> : null}
      {preview ? (
        <TrustPanel
          key={`${preview.hash}:${preview.trusted}`}
          preview={preview}
          started={started}
          busy={busy}
          onTrust={() => void (entry.disabled ? enable(true) : trustOnly())}
          onClose={() => setPreview(null)}
        />
      ) : null}
    </div>
  );
}
