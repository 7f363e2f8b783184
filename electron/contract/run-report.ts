import type { TestCaseResult, WorkflowReport, WorkflowRunView, WorkflowTimelineEntry } from './methods/workflow';
import { namesTask } from './trace';

/** What a report is built from: the run record, or the view of it a face holds. */
type RunFacts = Pick<WorkflowRunView, 'runId' | 'projectDir' | 'status' | 'goal' | 'plan' | 'timeline'>;

type Tested = WorkflowTimelineEntry & { test: NonNullable<WorkflowTimelineEntry['test']> };

/**
 * The run's account of what it verified, built only from what Erasmus recorded: the tests its
 * runners reported in the gates it ran and the commits it made. Each task's tests come from the latest
 * traced run of this run (any component's gate, or the final one) that has any test naming it: the
 * whole suite runs at each gate, so a task of an earlier goal is verified again by this run's passing test.
 */
export function runReport(record: RunFacts): WorkflowReport {
  const plan = record.plan;
  // A rewound step's tests no longer describe the project; a commit the hooks refused ran no tests.
  const runs = record.timeline.filter((e): e is Tested => !!e.test && e.leftAt !== undefined && !e.rewound && !(e.test.traced === undefined && e.test.command === 'git commit'));
  const traced = runs.filter((e) => e.test.traced && e.test.tests);
  // A documentation run develops no task: it has nothing to verify.
  const tasks = (plan?.documents ? [] : (plan?.components ?? [])).flatMap((c) => {
    const commit = record.timeline.filter((e) => e.state === `${c.id}:commit` && e.outcome === 'committed' && e.commit && !e.rewound).at(-1)?.commit ?? null;
    return c.tasks.map((t) => {
      let tests: TestCaseResult[] = [];
      // Skipped tests did not run: they neither verify a task nor fail it.
      for (let i = traced.length - 1; i >= 0 && !tests.length; i--) tests = traced[i]!.test.tests!.filter((x) => !x.skipped && namesTask(x, t.id));
      return {
        id: t.id,
        component: c.id,
        title: t.title,
        tests: once(tests),
        commit,
        // An earlier goal's task: done before this run, whose commits do not hold it.
        ...(!commit && t.status === 'done' ? { earlier: true } : {}),
      };
    });
  });
  const verified = tasks.length > 0 && tasks.every((t) => t.tests.length > 0 && t.tests.every((x) => x.passed));
  const untraced = runs.filter((e) => e.test.traced !== true).map((e) => ({ state: e.state, command: e.test.command, note: e.test.traceNote ?? UNTRACED_OLD }));
  return {
    runId: record.runId,
    projectDir: record.projectDir,
    status: record.status,
    goal: record.goal ?? null,
    verified,
    finalTestCommand: plan?.finalTestCommand ?? null,
    tasks,
    ...(plan?.documents ? { documentation: true } : {}),
    untraced,
  };
}

/** A gate recorded without its trace: only an Erasmus older than test reports (or than tracing an existing project's final gate) left one. */
const UNTRACED_OLD = 'recorded by an older Erasmus that did not read a test report for this gate';

/** A test the gate ran twice (the whole suite, then a component's command) is listed once: passed only if it passed each time. */
function once(tests: TestCaseResult[]): WorkflowReport['tasks'][number]['tests'] {
  const byKey = new Map<string, WorkflowReport['tasks'][number]['tests'][number]>();
  for (const x of tests) {
    const name = x.suite ? `${x.suite} > ${x.name}` : x.name;
    const key = `${x.file ?? ''}\0${name}`;
    const seen = byKey.get(key);
    if (seen) seen.passed &&= x.passed;
    else byKey.set(key, { name, file: x.file ?? null, passed: x.passed });
  }
  return [...byKey.values()];
}

/**
 * How long a run took, from its first step to `end`, without the time nothing drove it: a stretch with no step open
 * that begins where a step cut off by its process's end closed (`interrupted`, at its last activity), until resume.
 */
export function runTookMs(timeline: ReadonlyArray<{ enteredAt: string; leftAt?: string | undefined; outcome?: string | undefined }>, end: string): number {
  const first = timeline[0];
  if (!first) return 0;
  const spans = timeline.map((e) => [Date.parse(e.enteredAt), e.leftAt ? Date.parse(e.leftAt) : Date.parse(end)] as const).sort((a, b) => a[0] - b[0]);
  const cutOff = timeline.filter((e) => e.outcome === 'interrupted' && e.leftAt).map((e) => Date.parse(e.leftAt!));
  let down = 0;
  let [start, reach] = spans[0]!;
  for (const [from, to] of spans.slice(1)) {
    if (from > reach) {
      // A gap: downtime when a step of the stretch before it was cut off (the process ended with it open).
      if (cutOff.some((t) => t >= start && t <= reach)) down += from - reach;
      start = from;
    }
    reach = Math.max(reach, to);
  }
  return Math.max(0, Date.parse(end) - Date.parse(first.enteredAt) - down);
}
