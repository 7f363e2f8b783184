import type { McpServerStatus } from '../../../../electron/contract/index';
import { McpIcon } from './McpIcon';

const dot: Record<McpServerStatus['state'], string> = {
  ready: 'bg-emerald-500',
  starting: 'alive bg-sky-500',
  errored: 'bg-red-500',
  stopped: 'bg-slate-400',
  disabled: 'bg-slate-300',
};

/** One server in the list: state, transport, tool count, and why it failed. */
export function ServerRow({ server, selected, onSelect }: { server: McpServerStatus; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected}
      data-testid={`server-${server.name}`}
      data-state={server.state}
      className={`flex w-full flex-col items-start rounded px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected ? 'bg-slate-200 dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}
    >
      <span className="flex w-full items-center gap-2">
        <span className={`inline-block h-2 w-2 rounded-full ${dot[server.state]}`} aria-hidden />
        <McpIcon icons={server.icons} />
        <span className="font-medium">{server.name}</span>
        <span className="ml-auto text-xs text-slate-600 dark:text-slate-400">{server.state} · {server.transport}{server.state === 'ready' ? ` · ${server.tools} tools` : ''}</span>
      </span>
      {server.error ? <span className="mt-0.5 line-clamp-2 text-xs text-red-700 dark:text-red-300">{server.error}</span> : null}
    </button>
  );
}
