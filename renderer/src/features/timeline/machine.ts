import type { WorkflowPlan, WorkflowRunView } from '../../../../electron/contract/index';
import type { Block, BlockStatus, Lane } from './lanes';

/**
 * The plan as the state machine it runs: one row per part of the run (preparation, each component,
 * the final phase), one column per protocol state, in the order the machine visits them. The names
 * match the core's FSM (`workflow/plan.ts`): `<component>:<step>`, `orchestration:<component>`,
 * `prepare:<document>`, `final:<step>`.
 */
export const COMPONENT_STEPS = ['development', 'testing', 'debugging', 'review', 'fixes', 'documentation', 'retesting', 'redebugging', 'commit', 'orchestration'] as const;
export const PREPARE_STEPS = ['architecture', 'progress_schedule', 'task_list', 'plan'] as const;
export const FINAL_STEPS = ['testing', 'debugging', 'documentation', 'review', 'fixes', 'redebugging', 'commit'] as const;
/** Steps taken only when the step before them failed its tests. */
export const ON_FAILURE = new Set(['debugging', 'redebugging']);

export type CellStatus = BlockStatus | 'pending';

export interface Cell {
  /** The FSM state's name (`adder:testing`). */
  state: string;
  step: string;
  status: CellStatus;
  /** How many times the state ran. */
  runs: number;
  /** Its latest run on the timeline, if any. */
  last?: Block;
}

export interface MachineRow {
  id: string;
  kind: 'prepare' | 'component' | 'final';
  title: string;
  cells: Cell[];
}

function stateName(row: MachineRow['kind'], id: string, step: string): string {
  if (row === 'component' && step === 'orchestration') return `orchestration:${id}`;
  return `${row === 'prepare' ? 'prepare' : row === 'final' ? 'final' : id}:${step}`;
}

/** Rows of the machine with each state's status from the timeline; components come from the plan (or, before one, from the timeline). */
export function machineOf(view: Pick<WorkflowRunView, 'plan' | 'state' | 'status' | 'interrupted'>, lanes: Lane[]): MachineRow[] {
  const latest = new Map<string, Block>();
  const runs = new Map<string, number>();
  for (const b of lanes.flatMap((l) => l.blocks).sort((a, b) => a.index - b.index)) {
    latest.set(b.state, b);
    runs.set(b.state, (runs.get(b.state) ?? 0) + 1);
  }
  const live = view.status !== 'COMPLETED' && view.status !== 'STOPPED' && !view.interrupted;
  const cell = (kind: MachineRow['kind'], id: string, step: string): Cell => {
    const state = stateName(kind, id, step);
    const last = latest.get(state);
    let status: CellStatus = last?.status ?? 'pending';
    // The plan review is a state without a step of its own on the timeline while it waits.
    if (!last && live && view.state === state) status = 'current';
    return { state, step, status, runs: runs.get(state) ?? 0, ...(last ? { last } : {}) };
  };
  // A documentation run (workflow drift --fix) is one documentation step per drifted document, then the commit (workflow/plan.ts).
  const docs = view.plan?.documents;
  if (docs) {
    const titleOf = (id: string) => view.plan!.components.find((c) => c.id === id)?.title ?? '';
    return [
      ...docs.components.map((id) => ({ id, kind: 'component' as const, title: titleOf(id), cells: [cell('component', id, 'documentation')] })),
      { id: 'final', kind: 'final', title: 'Final phase', cells: [...(docs.architecture ? ['documentation'] : []), 'commit'].map((s) => cell('final', 'final', s)) },
    ];
  }
  const components: Array<Pick<WorkflowPlan['components'][number], 'id' | 'title'>> =
    view.plan?.components ?? lanes.filter((l) => l.id !== 'prepare' && l.id !== 'final' && l.id !== 'orchestration').map((l) => ({ id: l.id, title: '' }));
  return [
    { id: 'prepare', kind: 'prepare', title: 'Preparation', cells: PREPARE_STEPS.map((s) => cell('prepare', 'prepare', s)) },
    ...components.map((c) => ({ id: c.id, kind: 'component' as const, title: c.title, cells: COMPONENT_STEPS.map((s) => cell('component', c.id, s)) })),
    { id: 'final', kind: 'final', title: 'Final phase', cells: FINAL_STEPS.map((s) => cell('final', 'final', s)) },
  ];
}
