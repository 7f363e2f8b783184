import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { TerminalStore, type TerminalClient, type TerminalTab } from './store';
import { TerminalTabs } from './TerminalTabs';
import { XtermPane } from './XtermPane';
import { PaneHeader } from './PaneHeader';

/**
 * The terminal view: a tab per runner command as it runs (live from `terminal.*` events) and
 * shell tabs in the project folder. Every tab's xterm stays mounted so output lands as it comes.
 * It is the lazily loaded chunk (xterm); `store` holds what arrived before it loaded.
 */
export function TerminalView({ client, store: given, cwd, stepOf }: { client: TerminalClient; store?: TerminalStore; cwd?: string; stepOf?: (tab: TerminalTab) => string | undefined }) {
  // The app shell passes a store it started at once (so output is kept before this chunk loads); alone, the view makes its own.
  const own = useMemo(() => (given ? null : new TerminalStore(client)), [client, given]);
  const store = given ?? own!;
  useEffect(() => {
    if (!own) return;
    void own.start();
    return () => own.dispose();
  }, [own]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const active = state.tabs.find((t) => t.id === state.activeId);
  return (
    <section aria-label="Terminal" className="flex h-full min-h-0 flex-col bg-white dark:bg-slate-950">
      <TerminalTabs
        tabs={state.tabs}
        project={cwd}
        activeId={state.activeId}
        onSelect={(id) => store.select(id)}
        onKill={(id) => void store.kill(id)}
        onClose={(id) => void store.close(id)}
        onNewShell={() => void store.openShell(cwd)}
        stepOf={stepOf}
      />
      {state.error ? (
        <p role="alert" className="px-2 py-1 text-xs text-red-700 dark:text-red-300">
          {state.error}
        </p>
      ) : null}
      {/* The active tab's command, whole, with its folder and exit: the output below does not repeat it. */}
      {active ? <PaneHeader tab={active} project={cwd} step={stepOf?.(active)} /> : null}
      <div className="relative min-h-0 flex-1 bg-black p-1">
        {state.tabs.length === 0 ? <p className="p-2 text-xs text-slate-600 dark:text-slate-400">Commands the agent runs appear here. Open a shell with “+ New shell”.</p> : null}
        {state.tabs.map((tab) => (
          <XtermPane key={tab.id} store={store} id={tab.id} visible={tab.id === state.activeId} />
        ))}
      </div>
    </section>
  );
}
