import { useEffect, useRef, useState } from 'react';
import type { McpBundleInfo, McpConfigEntry } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { InstallFields } from './InstallFields';

const input = 'w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:bg-slate-900';

/**
 * Install a `.mcpb` bundle (MCP Bundle / Claude Desktop extension) from a file on this machine: what it
 * is and runs is shown first, then its settings (sensitive ones to the keychain). It arrives disabled;
 * its first enable shows the exact command and asks for trust.
 */
export function BundleInstall({ onInstalled, onClose, pathForFile }: { onInstalled: (entry: McpConfigEntry) => void; onClose: () => void; pathForFile?: (file: File) => string }) {
  const client = useClient();
  const [file, setFile] = useState('');
  const [info, setInfo] = useState<McpBundleInfo | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const inspect = async (path = file) => {
    setBusy(true);
    setError(null);
    setInfo(null);
    try {
      setInfo(await client.request('mcp.bundle.inspect', { file: path.trim() }));
      setValues({});
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const install = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await client.request('mcp.bundle.install', { file: file.trim(), values });
      onInstalled(r.entry);
    } catch (e) {
      setError(`Installing failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby="bundle-h"
      className="flex max-w-2xl flex-col gap-3"
      data-testid="bundle-install"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        const f = e.dataTransfer.files[0];
        const path = f && pathForFile?.(f);
        if (!path) return;
        e.preventDefault();
        setFile(path);
        void inspect(path);
      }}
    >
      <h3 id="bundle-h" className="text-lg font-semibold">Install a bundle (.mcpb)</h3>
      <form
        className="flex flex-col gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          void inspect();
        }}
      >
        <label htmlFor="bundle-file" className="text-sm font-medium">Bundle file</label>
        <div className="flex gap-2">
          <input id="bundle-file" ref={first} className={`${input} font-mono`} placeholder="/path/to/extension.mcpb" value={file} onChange={(e) => setFile(e.target.value)} aria-describedby="bundle-file-hint" data-testid="bundle-file" />
          <Button type="submit" disabled={busy || !file.trim()} data-testid="bundle-inspect">Open</Button>
        </div>
        <p id="bundle-file-hint" className="text-xs text-slate-600 dark:text-slate-400">The full path of a .mcpb (or .dxt) file{pathForFile ? ', or drop it here' : ''}.</p>
      </form>
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      {info ? (
        <form
          className="flex flex-col gap-2 rounded border border-slate-200 p-3 dark:border-slate-800"
          onSubmit={(e) => {
            e.preventDefault();
            void install();
          }}
          data-testid="bundle-info"
        >
          <p className="font-medium">{info.displayName} {info.version}{info.author ? <span className="font-normal"> by {info.author}</span> : null}</p>
          {info.description ? <p className="text-sm">{info.description}</p> : null}
          <p className="text-xs">A {info.serverType} server, installed as <code className="font-mono">{info.name}</code>. It runs:</p>
          <pre className="overflow-x-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100" data-testid="bundle-command">{[info.command, ...info.args].join(' ')}</pre>
          {info.tools.length ? <p className="text-xs">Tools it declares: {info.tools.map((t) => <code key={t} className="mr-1 font-mono">{t}</code>)}</p> : null}
          <InstallFields
            idPrefix="bundle"
            questions={info.userConfig.map((f) => ({ key: f.key, title: f.title, description: f.description, required: f.required, secret: f.sensitive, multiple: f.multiple, default: f.default }))}
            values={values}
            onChange={(k, v) => setValues((x) => ({ ...x, [k]: v }))}
          />
          <p className="text-xs text-slate-600 dark:text-slate-400">It is added disabled: enabling it shows the exact command for you to trust first.</p>
          <div className="flex gap-2">
            <Button type="submit" variant="primary" disabled={busy} data-testid="bundle-submit">{busy ? 'Installing…' : 'Install'}</Button>
          </div>
        </form>
      ) : null}
      <div>
        <Button variant="ghost" onClick={onClose}>Close</Button>
      </div>
    </section>
  );
}
