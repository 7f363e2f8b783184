import type { TerminalTab } from './store';

export interface TerminalTabsProps {
  tabs: readonly TerminalTab[];
  activeId: string | null;
  onSelect(id: string): void;
  onKill(id: string): void;
  onClose(id: string): void;
  onNewShell(): void;
}

function status(tab: TerminalTab): string {
  if (tab.running) return 'running';
  if (tab.timedOut) return 'timed out';
  return tab.exitCode === null ? 'stopped' : `exit ${tab.exitCode}`;
}

/** The terminal view's tab bar: one tab per command or shell, with its state, stop and close. */
export function TerminalTabs({ tabs, activeId, onSelect, onKill, onClose, onNewShell }: TerminalTabsProps) {
  return (
    <div role="tablist" aria-label="Terminals" className="flex items-center gap-1 overflow-x-auto border-b border-slate-200 px-2 text-xs dark:border-slate-800">
      {tabs.map((tab) => {
        const failed = !tab.running && tab.exitCode !== 0;
        return (
          <div key={tab.id} className={`flex items-center gap-1 rounded-t px-2 py-1 ${tab.id === activeId ? 'bg-slate-200 dark:bg-slate-800' : ''}`}>
            <button
              role="tab"
              aria-selected={tab.id === activeId}
              title={tab.command ?? tab.title}
              className="max-w-56 truncate"
              onClick={() => onSelect(tab.id)}
            >
              {tab.kind === 'shell' ? '❯ ' : ''}
              {tab.title}
            </button>
            <span data-testid={`terminal-status-${tab.id}`} className={tab.running ? 'text-sky-600' : failed ? 'text-red-600' : 'text-emerald-600'}>
              {status(tab)}
            </span>
            {tab.running ? (
              <button aria-label={`Stop ${tab.title}`} className="px-1 hover:text-red-600" onClick={() => onKill(tab.id)}>
                ■
              </button>
            ) : null}
            <button aria-label={`Close ${tab.title}`} className="px-1 hover:text-red-600" onClick={() => onClose(tab.id)}>
              ×
            </button>
          </div>
        );
      })}
      <button aria-label="New shell" className="ml-1 rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800" onClick={onNewShell}>
        + shell
      </button>
    </div>
  );
}
