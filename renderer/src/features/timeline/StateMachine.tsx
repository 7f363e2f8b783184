import { stepWords } from '../project/labels';
import type { Block } from './lanes';
import { ON_FAILURE, type Cell, type CellStatus, type MachineRow } from './machine';

const look: Record<CellStatus, string> = {
  current: 'alive bg-sky-700 text-white ring-2 ring-sky-300',
  waiting: 'bg-amber-300 text-black ring-2 ring-amber-500',
  done: 'bg-emerald-700 text-white',
  failed: 'bg-red-700 text-white',
  fixed: 'border-2 border-dashed border-red-700 bg-white text-red-900 dark:border-red-400 dark:bg-slate-900 dark:text-red-200',
  skipped: 'bg-slate-300 text-slate-800 line-through dark:bg-slate-600 dark:text-slate-100',
  interrupted: 'bg-amber-400 text-black',
  asked: 'bg-amber-100 text-amber-950 ring-2 ring-amber-600 dark:bg-amber-900 dark:text-amber-100',
  pending: 'border border-slate-300 text-slate-700 dark:border-slate-700 dark:text-slate-300',
};

const words: Record<CellStatus, string> = {
  current: 'running',
  waiting: 'waiting for you',
  done: 'done',
  failed: 'failed',
  fixed: 'failed, then fixed',
  skipped: 'skipped',
  interrupted: 'interrupted',
  asked: 'asked you',
  pending: 'not reached',
};


/**
 * The run's plan drawn as the state machine it is: parts of the run down, protocol states across, each
 * state coloured by how it went, the current one alive. States taken only on failure say so.
 */
export function StateMachine({ rows, onOpen }: { rows: MachineRow[]; onOpen: (b: Block) => void }) {
  return (
    <div className="flex flex-col gap-3" data-testid="state-machine">
      {rows.map((row) => (
        <section key={row.id} aria-label={row.kind === 'component' ? `Component ${row.id}` : row.title} data-testid={`machine-row-${row.id}`}>
          <h3 className="mb-1 text-xs font-medium">
            <span className={row.kind === 'component' ? 'font-mono' : ''}>{row.kind === 'component' ? row.id : row.title}</span>
            {row.kind === 'component' && row.title ? <span className="ml-2 font-normal text-slate-600 dark:text-slate-400">{row.title}</span> : null}
          </h3>
          <ol className="flex flex-wrap items-center gap-1 text-[11px]">
            {row.cells.map((c, i) => (
              <li key={c.state} className="flex items-center gap-1">
                {i > 0 ? <span aria-hidden className="text-slate-500">{ON_FAILURE.has(c.step) ? '⤷' : '→'}</span> : null}
                <CellView cell={c} part={row.kind === 'component' ? `component ${row.id}` : row.title.toLowerCase()} onOpen={onOpen} />
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}

function CellView({ cell, part, onOpen }: { cell: Cell; part: string; onOpen: (b: Block) => void }) {
  const name = stepWords(cell.step);
  const runs = cell.runs > 1 ? ` ×${cell.runs}` : '';
  // The name read out starts with what shows, then says where and how it went.
  const label = `${name}${runs}, ${part}: ${words[cell.status]}${ON_FAILURE.has(cell.step) ? ' (taken only when tests fail)' : ''}`;
  const className = `rounded px-1.5 py-0.5 ${look[cell.status]} ${ON_FAILURE.has(cell.step) && cell.status === 'pending' ? 'border-dashed' : ''}`;
  const data = { 'data-testid': 'machine-state', 'data-state': cell.state, 'data-status': cell.status, title: `${cell.state} — ${words[cell.status]}` };
  if (!cell.last) {
    return <span {...data} aria-label={label} role="img" className={className}>{name}{runs}</span>;
  }
  const last = cell.last;
  return (
    <button type="button" {...data} aria-label={label} onClick={() => onOpen(last)} className={`${className} focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500`}>
      {name}{runs}
    </button>
  );
}
