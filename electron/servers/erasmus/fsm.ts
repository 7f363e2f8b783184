import { buildWorkflowMachine } from '../../main/workflow/machine';
import { planStates, type Plan } from '../../main/workflow/plan';

export interface FsmState {
  name: string;
  phase?: string;
  protocol?: string;
  component?: string;
  testCommand?: string;
  final: boolean;
}

export interface FsmTransition {
  from: string;
  event: string;
  /** Absent: the machine stays where it is (a debugging state out of attempts blocks). */
  to?: string;
  /** When the transition is taken, if it is guarded or one of several for the event. */
  when?: string;
}

export interface FsmAnalysis {
  [key: string]: unknown;
  initial: string;
  states: FsmState[];
  transitions: FsmTransition[];
  components: string[];
}

/**
 * Reads the states and transitions off the XState machine the workflow really runs (built from
 * the plan), not off a second description of it.
 */
export function analyzePlan(plan: Plan): FsmAnalysis {
  const machine = buildWorkflowMachine(plan);
  const specs = new Map(planStates(plan).map((s) => [s.state, s]));
  const states: FsmState[] = [];
  const transitions: FsmTransition[] = [];
  for (const [name, node] of Object.entries(machine.root.states)) {
    const spec = specs.get(name);
    states.push({ name, phase: spec?.phase, protocol: spec?.protocol, component: spec?.component, testCommand: spec?.testCommand, final: node.type === 'final' });
    for (const [event, defs] of node.transitions) {
      defs.forEach((d, i) => {
        const to = d.target?.[0]?.key ?? null;
        let when: string | undefined;
        if (defs.length > 1) {
          if (typeof d.guard === 'string' && d.guard === 'passed') when = 'tests pass (or no test command)';
          else if (to === name) when = 'tests fail, attempts left';
          else if (to === null) when = 'tests fail, no attempts left: the run blocks';
          else when = i === defs.length - 1 ? 'tests fail' : undefined;
        } else if (to === null) when = 'resets the attempts';
        transitions.push({ from: name, event, ...(to !== null ? { to } : {}), ...(when ? { when } : {}) });
      });
    }
  }
  return { initial: String(machine.config.initial), states, transitions, components: plan.components.map((c) => c.id) };
}

/** The analysis as text for the model: the initial state, then each state with its ways out. */
export function describeAnalysis(a: FsmAnalysis): string {
  const lines = [`initial state: ${a.initial}`, `components: ${a.components.join(', ')}`, `${a.states.length} states, ${a.transitions.length} transitions`, ''];
  for (const s of a.states) {
    const out = a.transitions.filter((t) => t.from === s.name).map((t) => `${t.event} → ${t.to ?? '(stays)'}${t.when ? ` [${t.when}]` : ''}`);
    lines.push(`${s.name}${s.final ? ' (final)' : ''}${s.protocol ? ` — ${s.protocol}` : ''}${out.length ? `: ${out.join('; ')}` : ''}`);
  }
  return lines.join('\n');
}
