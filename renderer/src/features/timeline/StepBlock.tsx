import { formatCost, formatDuration, formatTokens } from '../../ui/format';
import type { Block, BlockStatus } from './lanes';

const look: Record<BlockStatus, string> = {
  current: 'alive bg-sky-700 text-white ring-2 ring-sky-300',
  done: 'bg-emerald-700 text-white',
  failed: 'bg-red-700 text-white',
  skipped: 'bg-slate-300 text-slate-700 line-through dark:bg-slate-600 dark:text-slate-200',
  interrupted: 'bg-amber-400 text-black',
};

/** One protocol state of the run: where and how long it sat on the time axis, and how it ended. */
export function StepBlock({ block, onOpen }: { block: Block; onOpen: (b: Block) => void }) {
  const e = block.entry;
  const duration = e.durationMs ?? block.end - block.start;
  const detail = [
    `${block.state}${block.attempt > 1 ? ` (attempt ${block.attempt})` : ''}`,
    block.status === 'current' ? 'running' : (e.outcome ?? block.status),
    formatDuration(duration),
    e.usage ? `${formatTokens(e.usage.totalTokens)} tokens ${formatCost(e.usage.costUsd)}` : '',
    e.test ? `tests: ${e.test.command} → ${e.test.passed ? 'passed' : `failed (${e.test.exitCode})`}` : '',
    e.commit ? `commit ${e.commit.slice(0, 10)}` : '',
    e.note ?? '',
  ].filter(Boolean);
  const label = `${block.step}${block.attempt > 1 ? ` ×${block.attempt}` : ''}`;
  const sub = `${formatDuration(duration)}${e.usage ? ` · ${formatTokens(e.usage.totalTokens)}` : ''}`;
  return (
    <button
      type="button"
      onClick={() => onOpen(block)}
      title={detail.join('\n')}
      data-testid="timeline-block"
      data-state={block.state}
      data-status={block.status}
      style={{ left: `${block.left * 100}%`, width: `${block.width * 100}%` }}
      className={`absolute top-1 bottom-1 min-w-6 overflow-hidden rounded px-1 text-left text-[11px] leading-tight focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 ${look[block.status]}`}
    >
      <span className="block truncate font-medium">{label}</span>
      <span className="block truncate">{sub}</span>
      {/* The name read out: what shows, then the details the tooltip has. */}
      <span className="sr-only">: {detail.join(', ')}</span>
    </button>
  );
}
