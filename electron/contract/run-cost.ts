import type { WorkflowTimelineEntry, WorkflowUsage } from './methods/workflow';

/** Tokens and cost of one part of a run: the preparation, one component, the final phase. */
export interface PartCost {
  /** `prepare`, a component's id, or `final`. */
  part: string;
  /** In words: "Preparation", the component's id, "Schedule update" (after components side by side), "Final phase". */
  label: string;
  totalTokens: number;
  /** Absent when a step of the part used a model whose prices are unknown. */
  costUsd?: number;
}

/** The parts that are not a component, in words (a component's part is its id). */
const LABELS: Record<string, string> = { prepare: 'Preparation', final: 'Final phase', parallel: 'Schedule update' };

/** Which part a step belongs to: its component; the schedule update after a component counts to that component. */
function partOf(e: Pick<WorkflowTimelineEntry, 'state' | 'component'>): string {
  const [lane, step] = e.state.split(':');
  if (lane === 'prepare' || lane === 'final') return lane;
  if (lane === 'orchestration' && step) return step;
  return e.component ?? lane ?? e.state;
}

/** A run's usage per part, in run order (only parts that used a model). */
export function costByPart(timeline: ReadonlyArray<Pick<WorkflowTimelineEntry, 'state' | 'component' | 'usage'>>): PartCost[] {
  const parts = new Map<string, PartCost & { unpriced: boolean }>();
  for (const e of timeline) {
    if (!e.usage) continue;
    const part = partOf(e);
    const p = parts.get(part) ?? { part, label: LABELS[part] ?? part, totalTokens: 0, unpriced: false };
    p.totalTokens += e.usage.totalTokens;
    if (e.usage.costUsd === undefined) p.unpriced = true;
    else p.costUsd = (p.costUsd ?? 0) + e.usage.costUsd;
    parts.set(part, p);
  }
  return [...parts.values()].map(({ unpriced, costUsd, ...p }) => (unpriced || costUsd === undefined ? p : { ...p, costUsd }));
}

/** Adds usage to a run's totals (e.g. the live usage of a step still running); cost stays known only while both are. */
/**
 * The parts' costs on one line, for the CLI and the app alike: where no model had prices the hint where to give
 * them is said once, not after every part; a part is marked "cost unknown" only when others have a price.
 */
export function costPartsText(parts: readonly PartCost[], o: { tokens: (n: number) => string; cost: (usd: number) => string; sep: string; hint: string }): string {
  const priced = parts.filter((p) => p.costUsd !== undefined).length;
  const text = parts.map((p) => `${p.label} ${o.tokens(p.totalTokens)} tokens${p.costUsd !== undefined ? ` ${o.cost(p.costUsd)}` : priced ? ' (cost unknown)' : ''}`).join(o.sep);
  if (priced === parts.length) return text;
  return `${text} (${priced ? 'where the cost is unknown, ' : 'cost unknown: '}${o.hint})`;
}

export function addWorkflowUsage(a: WorkflowUsage, b: { inputTokens: number; outputTokens: number; totalTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number; costUsd?: number | null }): WorkflowUsage {
  const cost = b.costUsd ?? undefined;
  const known = a.totalTokens === 0 ? cost : a.costUsd !== undefined && cost !== undefined ? a.costUsd + cost : undefined;
  const cacheRead = (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0);
  const cacheWrite = (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...(cacheRead ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
    ...(known !== undefined ? { costUsd: known } : {}),
  };
}
