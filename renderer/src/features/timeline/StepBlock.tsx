import { formatCost, formatDuration, formatTokens } from '../../ui/format';
import { commitWords, entryOutcome, humanOutcome, humanState, stepWords } from '../project/labels';
import type { Block, BlockStatus } from './lanes';

const look: Record<BlockStatus, string> = {
  current: 'alive bg-sky-700 text-white ring-2 ring-sky-300',
  waiting: 'bg-amber-300 text-black ring-2 ring-amber-500',
  done: 'bg-emerald-700 text-white',
  failed: 'bg-red-700 text-white',
  fixed: 'border-2 border-dashed border-red-700 bg-white text-red-900 dark:border-red-400 dark:bg-slate-900 dark:text-red-200',
  skipped: 'bg-slate-300 text-slate-700 line-through dark:bg-slate-600 dark:text-slate-200',
  interrupted: 'bg-amber-400 text-black',
  asked: 'bg-amber-100 text-amber-950 ring-2 ring-amber-600 dark:bg-amber-900 dark:text-amber-100',
};

/** One protocol state of the run: its place in the run's order, how long it took, and how it ended. */
export function StepBlock({ block, onOpen }: { block: Block; onOpen: (b: Block) => void }) {
  const e = block.entry;
  const duration = e.durationMs ?? block.end - block.start;
  const detail = [
    `${humanState(block.state)}${block.attempt > 1 ? ` (attempt ${block.attempt})` : ''}`,
    block.status === 'current' ? 'running' : block.status === 'waiting' ? 'waiting for you' : block.status === 'fixed' ? 'tests failed, fixed later' : (entryOutcome(e) ?? humanOutcome(block.status)),
    formatDuration(duration),
    e.usage ? `${formatTokens(e.usage.totalTokens)} tokens ${formatCost(e.usage.costUsd)}` : '',
    e.test ? `tests: ${e.test.command} → ${e.test.passed ? 'passed' : `failed (${e.test.exitCode})`}` : '',
    commitWords(e, 10),
    // Run again with the user's answer (to what the step before asked): said with the step, as the run record keeps it.
    e.answer ? `with your answer: “${e.answer.trim()}”` : '',
    e.note ?? '',
    e.rewound ? 'rewound' : '',
    block.alongside ? `at the same time as ${alongsideWords(block.alongside)}` : '',
  ].filter(Boolean);
  const label = `${e.rewound ? '↶ ' : ''}${stepWords(block.step)}${block.attempt > 1 ? ` ×${block.attempt}` : ''}`;
  const sub = `${e.answer ? 'with your answer · ' : ''}${formatDuration(duration)}${e.usage ? ` · ${formatTokens(e.usage.totalTokens)}` : ''}${e.usage?.costUsd !== undefined ? ` · ${formatCost(e.usage.costUsd)}` : ''}`;
  return (
    <button
      type="button"
      onClick={() => onOpen(block)}
      title={detail.join('\n')}
      data-testid="timeline-block"
      data-index={block.index}
      data-state={block.state}
      data-status={block.status}
      data-rewound={e.rewound ? 'true' : undefined}
      data-answered={e.answer ? 'true' : undefined}
      style={{ left: `calc(${block.left * 100}% + 1px)`, width: `calc(${block.width * 100}% - 2px)` }}
      className={`absolute top-1 bottom-1 overflow-hidden rounded px-1 text-left text-[11px] leading-tight focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 ${look[block.status]}${e.rewound ? ' italic' : ''}`}
    >
      <span className="block truncate font-medium">{label}</span>
      <span className="block truncate">{sub}</span>
      {/* Time, the secondary axis: a bar as long as the step against the longest one. */}
      <span aria-hidden className="absolute bottom-0 left-0 h-0.5 bg-current opacity-70" style={{ width: `${Math.max(2, block.share * 100)}%` }} />
      {/* The name read out: what shows, then the details the tooltip has. */}
      <span className="sr-only">: {detail.join(', ')}</span>
    </button>
  );
}

/** The steps of other components that ran at the same time, each once: "slugify · debugging ×3, count · review". */
export function alongsideWords(states: string[]): string {
  const counts = new Map<string, number>();
  for (const s of states) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${humanState(s)}${n > 1 ? ` ×${n}` : ''}`).join(', ');
}
