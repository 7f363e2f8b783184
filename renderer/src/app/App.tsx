import { useEffect, useState } from 'react';
import { useClient } from '../api/context';
import { TerminalView } from '../features/terminal/index';

type Info = { version: string; platform: string; home: string; face: string };

/** The app shell: header, the current view, status bar. Features plug into the main area. */
export function App() {
  const client = useClient();
  const [info, setInfo] = useState<Info | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    client.request('app.info', {}).then(setInfo, (e: Error) => setError(e.message));
  }, [client]);
  return (
    <div className="flex h-full flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="flex items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <h1 className="text-lg font-semibold" data-testid="app-title">Erasmus</h1>
      </header>
      <main className="flex-1 overflow-auto p-6" data-testid="app-shell">
        {error ? <p role="alert" className="text-red-600">{error}</p> : null}
      </main>
      <div className="h-64 shrink-0 border-t border-slate-200 dark:border-slate-800" data-testid="terminal-panel">
        <TerminalView client={client} />
      </div>
      <footer className="border-t border-slate-200 px-4 py-1 text-xs text-slate-500 dark:border-slate-800" data-testid="status-bar">
        {info ? `Erasmus ${info.version} · ${info.face} · ${info.home}` : 'connecting…'}
      </footer>
    </div>
  );
}
