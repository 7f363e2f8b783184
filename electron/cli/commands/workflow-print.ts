import { blockedAtMerge, blockedLastWords, costByPart, costPartsText, lastWordsCut, mergeRetryWords, reviewOutcomes, reviewsLeftOpenLines, type EventName, type WorkflowPlan, type WorkflowRunSummary, type WorkflowRunView, type WorkflowTimelineEntry } from '../../contract/index';
import { shellQuote } from '../../main/runners/policy/flags';
import { commitWords, databaseHint, entryOutcome, humanError, humanOutcome, humanState, humanStatus, saysRefused, unplannedWarning } from '../../contract/words';

/** Human lines for workflow events and views (the CLI's renderer of the event stream). */
export function planText(plan: WorkflowPlan, existing = false): string {
  const lines = ['Plan:'];
  plan.components.forEach((c, i) => {
    // A component whose tasks are all done (an earlier goal's) is not developed again; its tests still run at the end.
    const done = c.tasks.every((t) => t.status === 'done') ? '   (done: not developed again)' : '';
    // What it needs, where that is not simply the component before it (its Depends: line); `Depends: none` is said for
    // every component that has it, the first too, so components with the same line read the same.
    const d = c.depends;
    const before = plan.components[i - 1]?.id;
    const needs = !d || (d.length === 1 && d[0] === before) ? '' : d.length ? `   (needs ${d.join(', ')})` : '   (needs no other component)';
    lines.push(`  ${i + 1}. ${c.id}${c.title ? ` — ${c.title}` : ''}${c.testCommand ? `   (tests: ${c.testCommand})` : ''}${needs}${done}`);
    for (const t of c.tasks) lines.push(`       [${t.status === 'done' ? 'x' : t.status === 'in_progress' ? '~' : ' '}] ${t.id}: ${t.title}`);
  });
  // An existing code base keeps its own tests: the final gate runs them, and no end-to-end suite is written.
  lines.push(`  then: ${existing ? "the project's own tests" : 'end-to-end testing'}, final documentation, final review (and its fixes when it asks for changes)`);
  if (plan.defaultTestCommand) lines.push(`  product tests: ${plan.defaultTestCommand}`);
  if (plan.finalTestCommand) lines.push(`  final gate (the whole test suite${plan.finalTestCommandByUser ? ', as you set it' : ', composed again when it runs'}): ${plan.finalTestCommand}`);
  if (plan.unplanned?.length) lines.push(`warning: ${unplannedWarning(plan.unplanned)}`);
  return lines.join('\n');
}

/** One step in words: "→ adder · development" when it starts, "  adder · testing: tests passed in 2.0 s (…)" when it ends. */
export function entryLine(e: WorkflowTimelineEntry): string {
  // A step run again with the user's answer says so as it starts, with the answer (as its timeline entry keeps it).
  if (!e.leftAt) return `→ ${humanState(e.state)}${e.rewound ? ' — rewound' : ''}${e.answer ? `\n    ${answerLine(e.answer)}` : ''}`;
  const secs = `${((e.durationMs ?? 0) / 1000).toFixed(1)} s`;
  const extra = [commitWords(e), e.test ? `\`${e.test.command}\` exit ${e.test.exitCode}${e.test.traced ? `, ${e.test.tests?.length ?? 0} test${e.test.tests?.length === 1 ? '' : 's'} in the runner's report` : e.test.traced === false ? ', not traced' : ''}` : '', e.usage ? `${e.usage.totalTokens} tokens${e.usage.costUsd !== undefined ? `, $${e.usage.costUsd.toFixed(4)}` : ''}` : '']
    .filter(Boolean)
    .join(', ');
  const rewound = e.rewound ? ' — rewound' : '';
  // A step passed over says why (a review that asked for no changes).
  if (e.outcome === 'skipped' && e.note) return `  ${humanState(e.state)}: skipped — ${e.note}${rewound}`;
  // The end-to-end step that wrote no test is not a plain "tests passed".
  if (e.state === 'final:testing' && e.note && (e.outcome === 'tests-passed' || e.outcome === 'tests-failed')) return `  ${humanState(e.state)}: ${humanOutcome(e.outcome)} in ${secs}${extra ? ` (${extra})` : ''} — ${e.note}${rewound}`;
  if (e.outcome === 'tests-untraced' && e.note) return `  ${humanState(e.state)}: ${e.note} in ${secs}${extra ? ` (${extra})` : ''}${rewound}`;
  // Calls refused and gone on without (nobody could approve them, or nobody followed the run) are said under the step.
  // A commit git or the hooks refused says their words (else only "exit 128" is shown, and the user cannot tell why).
  const refused = saysRefused(e.note) || (e.state.endsWith(':commit') && e.note && (e.outcome === 'tests-failed' || e.outcome === 'error')) ? `\n    note: ${e.note}` : '';
  return `  ${humanState(e.state)}: ${entryOutcome(e) ?? 'ended'} in ${secs}${extra ? ` (${extra})` : ''}${rewound}${refused}`;
}

/** The user's answer a step ran with, on one line: "with your answer: “Only --lower.”" (a long one cut, its lines joined). */
export function answerLine(answer: string): string {
  const flat = answer.trim().replace(/\s+/g, ' ');
  return `with your answer: “${flat.length > 200 ? `${flat.slice(0, 199)}…` : flat}”`;
}

/**
 * The CLI's lines for a run's events, each step's said once: a step is sent again whenever its entry changes (it names
 * its session, its prompt is kept, a durable run's worker saves it again, its files are added after it ended), and
 * a line already printed for that step (the same start, the same end) is not printed again. Another attempt at a
 * step starts at another time: it is a step of its own.
 */
export function eventPrinter(): (event: EventName, payload: unknown) => string | undefined {
  const printed = new Map<string, Set<string>>();
  return (event, payload) => {
    const line = eventLine(event, payload);
    if (event !== 'workflow.step' || line === undefined) return line;
    const { runId, entry } = payload as { runId: string; entry: WorkflowTimelineEntry };
    const key = `${runId}\0${entry.state}\0${entry.enteredAt}`;
    const said = printed.get(key) ?? new Set<string>();
    printed.set(key, said);
    if (said.has(line)) return undefined;
    said.add(line);
    return line;
  };
}

export function eventLine(event: EventName, payload: unknown): string | undefined {
  const p = payload as Record<string, unknown>;
  switch (event) {
    case 'workflow.step':
      return entryLine(p.entry as WorkflowTimelineEntry);
    case 'workflow.status':
      // A blocked run's error is said once, by the status the CLI prints when the run stops (with how to go on).
      if (p.pausing) return '■ Pausing after the steps under way';
      return `■ ${statusWords(p.status as WorkflowRunView['status'], p.state as string | undefined)}`;
    case 'app.notify':
      return `★ ${p.title}: ${p.body}`;
    default:
      return undefined;
  }
}

/** "Blocked — needs you, at adder · debugging"; a finished run's last state is not named. */
function statusWords(status: WorkflowRunView['status'], state: string | undefined, interrupted?: boolean): string {
  const at = state && state !== 'completed' && status !== 'COMPLETED' && status !== 'ABANDONED' ? `, at ${humanState(state)}` : '';
  return `${humanStatus(status, interrupted)}${at}`;
}

/** A plan waiting for review: how to approve it, and how to change it first (the task list, which approve reads again). */
export function planReviewHint(v: Pick<WorkflowRunView, 'projectDir' | 'durable' | 'taskListFile' | 'architectureFile'>): string {
  const db = databaseHint(v.durable);
  const edit = v.taskListFile ? `; to change the plan first, edit its task list (${v.taskListFile}: components, tasks, Test: and Depends: lines), which approve reads again` : '';
  const arch = v.architectureFile ? ` (the architecture it follows: ${v.architectureFile})` : '';
  return `the plan waits for your review${arch}: approve it with erasmus workflow approve ${v.projectDir}${db.option}${edit}${db.note}`;
}

export function statusText(v: WorkflowRunView): string {
  const lines = [
    `run ${v.runId}: ${statusWords(v.status, v.state, v.interrupted)}`,
    `project ${v.projectDir}  executor ${v.executor}  tokens ${v.totals.totalTokens}${v.totals.costUsd !== undefined ? `  $${v.totals.costUsd.toFixed(4)}` : ''}`,
  ];
  // Cost per part (preparation, each component, the final phase); "cost unknown" where a model had no prices.
  const parts = costByPart(v.timeline);
  if (parts.length) lines.push(`cost by part: ${costPartsText(parts, { tokens: String, cost: (usd) => `$${usd.toFixed(4)}`, sep: '; ', hint: "no prices for this model; give them as the provider's pricing: {input, output} (US dollars per million tokens) in config.yaml" })}`);
  if (v.error) {
    lines.push(humanError(v.error));
    for (const i of v.error.issues ?? []) lines.push(`  ${i.line ? `line ${i.line}: ` : ''}${i.message}`);
  }
  // Beside the gate's reason, what the model said last in the step that blocked (it may say why, or what it needs decided).
  const words = blockedLastWords(v);
  if (words) {
    const cut = lastWordsCut(words);
    const all = words.sessionLog ? `all of it: erasmus sessions export ${words.sessionLog}` : '';
    const how = [cut, all].filter(Boolean).join('; ');
    lines.push(`the model's last words in ${humanState(words.state)}${how ? ` (${how})` : ''}:`, ...words.text.split('\n').map((l) => `  > ${l}`.trimEnd()));
  }
  // Recorded RUNNING while its driving process is gone (killed, crashed): it says so, and how to take it up.
  // A durable run's commands need its database: each hint names it (the password masked, as the record keeps it).
  const db = databaseHint(v.durable);
  if (v.interrupted) lines.push(`nothing is driving it: erasmus workflow resume ${v.projectDir}${db.option}${db.note}`);
  // Stopped or paused by the user: resume goes on from the step it stopped at.
  else if (v.status === 'STOPPED' || v.status === 'PAUSED') lines.push(`go on with: erasmus workflow resume ${v.projectDir}${db.option}${db.note}`);
  // The plan waits for review (declined at the CLI's question, or come back to later): how to approve it, and how to change it first.
  else if (v.status === 'AWAITING_APPROVAL') lines.push(planReviewHint(v));
  if (v.status === 'COMPLETED') lines.push(...completionLines(v.timeline));
  const blockedLanes = v.status === 'BLOCKED' ? (v.lanes ?? []).filter((l) => l.status === 'blocked') : [];
  if (blockedLanes.length) {
    // Side by side: say which component stopped, where its work is, and that retry or skip goes on from its step.
    // Each named (--component): a retry's answer is for its step alone, and a retry or skip of one blocked component
    // never lands on another.
    for (const l of blockedLanes) {
      const one = `${shellQuote(v.projectDir)} --component ${shellQuote(l.component)}${db.option}`;
      const where = `${l.state ? ` at ${humanState(l.state)}` : ''}${l.worktree ? `; its work is in its worktree ${l.worktree}` : ''}`;
      lines.push(
        l.asks
          ? `component ${l.component} stopped to ask you${where}. To go on: answer it: erasmus workflow retry ${one} --answer TEXT ('-' reads the answer from stdin); or settle it yourself (in its worktree) and retry without --answer, or skip that step: erasmus workflow skip ${one}${db.note}`
          : `component ${l.component} is blocked${where}. To go on: fix the cause, then run its step again: erasmus workflow retry ${one}, or skip that step: erasmus workflow skip ${one}${db.note}`,
      );
    }
  } else if (v.status === 'BLOCKED') {
    // Skip is for the machine's states; a preparation step can only run again.
    // What a skip does where tests gate the step: the run goes on without them passing (and says so in its report).
    const gated = v.state && /:(debugging|redebugging|testing|retesting)$/.test(v.state) ? ' (the run goes on to the next step with these tests not passing)' : '';
    // At the components' phase with none blocked, a merge into the run's branch stopped it: nothing there can be skipped.
    const skip = v.state && !v.state.startsWith('prepare:') && v.state !== 'parallel:components' ? `, or skip it${gated}: erasmus workflow skip ${v.projectDir}${db.option}` : '';
    const merging = blockedAtMerge(v);
    if (merging) lines.push(`to go on: ${mergeRetryWords(merging, `erasmus workflow retry ${v.projectDir}${db.option}`)}${skip}${db.note}`);
    // The step stopped to ask: the way on is the answer (a retry without one is the user's word to go on as things are).
    else if (v.error?.asks) lines.push(`to go on: answer it: erasmus workflow retry ${shellQuote(v.projectDir)} --answer TEXT${db.option} ('-' reads the answer from stdin); or ${v.state === 'parallel:components' ? `resolve the conflicts yourself in ${v.projectDir} (no marker left; do not commit)` : 'settle it yourself (the code, a test or the documents)'} and retry without --answer${skip}${db.note}`);
    else lines.push(`to go on: fix the cause, then run the step again: erasmus workflow retry ${v.projectDir}${db.option}${skip}${db.note}`);
  }
  // A parallel run: each component, what it needs, where it stands (its step and worktree while it runs, its commit once merged).
  if (v.lanes?.length) {
    const where = v.durable ? `, run by \`erasmus worker\` processes over ${v.durable.database}` : '';
    lines.push(`components side by side (at most ${v.parallelComponents ?? 2} at once${where}), merged in this order:`);
    for (const l of v.lanes) {
      // A durable run not followed now (paused, stopped, or its process gone): a running component's workflow goes on in the workers.
      if (v.durable && l.status === 'running' && (v.interrupted || v.status === 'PAUSED' || v.status === 'STOPPED')) {
        const why = v.interrupted ? 'nothing follows it here' : `the run is ${v.status === 'PAUSED' ? 'paused' : 'stopped'}`;
        lines.push(`  ${l.component}: running in \`erasmus worker\`${l.state ? `, at ${humanState(l.state)}` : ''} (${why}: its workflow goes on in the workers, and resume takes up what they did, nothing done twice)${l.depends.length ? `; needs ${l.depends.join(', ')}` : ''}`);
        continue;
      }
      // Nothing drives an interrupted run: a lane recorded running is interrupted at its step, and resume runs that step again.
      if (v.interrupted && l.status === 'running') {
        lines.push(`  ${l.component}: interrupted${l.state ? ` at ${humanState(l.state)}` : ''} (resume runs it again)${l.depends.length ? `; needs ${l.depends.join(', ')}` : ''}`);
        continue;
      }
      const where = l.status === 'merged' ? (l.commit ? ` as ${l.commit.slice(0, 8)}` : ' (nothing to commit)') : l.state ? `, at ${humanState(l.state)}${l.worktree ? ` in ${l.worktree}` : ''}` : '';
      const kept = l.kept ? `; not merged, its work is kept under ${l.kept} (git log ${l.kept})` : '';
      // A blocked run's error names its blocked components already.
      const error = l.error && !(v.status === 'BLOCKED' && l.status === 'blocked' && v.error) ? `: ${l.error}` : '';
      // A durable run's component that does not move says why (no worker takes it, or its worker is gone); one on the queue is queued, not running.
      const queued = l.waiting?.startsWith('queued: ');
      const waiting = l.waiting ? `; ${queued ? l.waiting.slice('queued: '.length) : l.waiting}` : '';
      lines.push(`  ${l.component}: ${queued ? 'queued' : l.asks ? 'stopped to ask you' : l.status}${where}${l.depends.length ? `; needs ${l.depends.join(', ')}` : ''}${waiting}${error}${kept}`);
    }
  }
  if (v.timeline.length) {
    lines.push('timeline:');
    // Each step once; one run with the user's answer says it under the step.
    for (const e of v.timeline) lines.push(`  ${e.enteredAt}  ${entryLine(e).trim()}`, ...(e.leftAt && e.answer ? [`    ${answerLine(e.answer)}`] : []));
  }
  return lines.join('\n');
}

/** Runs grouped by project, each project's goals newest first: when, status in words, the goal, the run id. */
export function runsText(runs: WorkflowRunSummary[]): string {
  if (!runs.length) return 'no workflow runs yet: start one with erasmus workflow start DIR --goal TEXT\n';
  const byProject = new Map<string, WorkflowRunSummary[]>();
  for (const r of runs) byProject.set(r.projectDir, [...(byProject.get(r.projectDir) ?? []), r]);
  const out: string[] = [];
  for (const [project, list] of byProject) {
    out.push(project);
    for (const r of list) {
      const when = r.createdAt.slice(0, 16).replace('T', ' ');
      const goal = (r.goal ?? '(no goal yet)').split('\n')[0]!.slice(0, 80);
      out.push(`  ${when}  ${humanStatus(r.status, r.interrupted).padEnd(36)} ${goal}   run ${r.runId}`);
    }
  }
  return out.join('\n') + '\n';
}

/** What became of the run's reviews at completion: every point left open, one per line; never a bare "complete" when one is. */
export function completionLines(timeline: WorkflowTimelineEntry[]): string[] {
  const open = reviewsLeftOpenLines(timeline);
  if (open.length) return ['completed with review points left open:', ...open.map((l) => `  ${l}`)];
  const reviews = reviewOutcomes(timeline);
  if (!reviews.length) return [];
  const fixed = reviews.filter((r) => r.fixes === 'addressed').length;
  if (!fixed) return [`reviews: ${reviews.length}, none asked for changes`];
  if (fixed === reviews.length) return [`reviews: ${reviews.length}, every point addressed by a fixes step`];
  return [`reviews: ${reviews.length}, every point addressed (${fixed} by a fixes step, the others asked for no changes)`];
}
