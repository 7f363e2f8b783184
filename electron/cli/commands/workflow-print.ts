import type { EventName, WorkflowPlan, WorkflowRunView, WorkflowTimelineEntry } from '../../contract/index';

/** Human lines for workflow events and views (the CLI's renderer of the event stream). */
export function planText(plan: WorkflowPlan): string {
  const lines = ['Plan:'];
  plan.components.forEach((c, i) => {
    lines.push(`  ${i + 1}. ${c.id}${c.title ? ` — ${c.title}` : ''}${c.testCommand ? `   (tests: ${c.testCommand})` : ''}`);
    for (const t of c.tasks) lines.push(`       [${t.status === 'done' ? 'x' : t.status === 'in_progress' ? '~' : ' '}] ${t.id}: ${t.title}`);
  });
  lines.push('  then: end-to-end testing, final documentation, final review');
  if (plan.defaultTestCommand) lines.push(`  product tests: ${plan.defaultTestCommand}`);
  return lines.join('\n');
}

export function entryLine(e: WorkflowTimelineEntry): string {
  if (!e.leftAt) return `→ ${e.state}${e.protocol ? ` (${e.protocol})` : ''}`;
  const secs = ((e.durationMs ?? 0) / 1000).toFixed(1);
  const extra = [e.commit ? `commit ${e.commit.slice(0, 8)}` : '', e.test ? `\`${e.test.command}\` exit ${e.test.exitCode}` : '', e.usage ? `${e.usage.totalTokens} tokens${e.usage.costUsd !== undefined ? `, $${e.usage.costUsd.toFixed(4)}` : ''}` : '']
    .filter(Boolean)
    .join(', ');
  // A step passed over says why (a review that asked for no changes).
  if (e.outcome === 'skipped' && e.note) return `  ${e.state}: skipped — ${e.note}`;
  return `  ${e.state}: ${e.outcome} in ${secs}s${extra ? ` (${extra})` : ''}${e.rewound ? ' — rewound' : ''}`;
}

export function eventLine(event: EventName, payload: unknown): string | undefined {
  const p = payload as Record<string, unknown>;
  switch (event) {
    case 'workflow.step': {
      const e = p.entry as WorkflowTimelineEntry;
      // A running step is sent again once it names its session: that is not a second start.
      return !e.leftAt && e.sessionLog ? undefined : entryLine(e);
    }
    case 'workflow.status': {
      const err = p.error as WorkflowRunView['error'];
      return `[${p.status}]${p.state ? ` ${p.state}` : ''}${err && p.status === 'BLOCKED' ? `\n  ${err.message}` : ''}`;
    }
    case 'app.notify':
      return `★ ${p.title}: ${p.body}`;
    default:
      return undefined;
  }
}

export function statusText(v: WorkflowRunView): string {
  const lines = [
    `run ${v.runId}  ${v.status}${v.state ? `  at ${v.state}` : ''}`,
    `project ${v.projectDir}  executor ${v.executor}  tokens ${v.totals.totalTokens}${v.totals.costUsd !== undefined ? `  $${v.totals.costUsd.toFixed(4)}` : ''}`,
  ];
  if (v.error) {
    lines.push(`error (${v.error.kind}): ${v.error.message}`);
    for (const i of v.error.issues ?? []) lines.push(`  ${i.line ? `line ${i.line}: ` : ''}${i.message}`);
  }
  if (v.status === 'BLOCKED') {
    // Skip is for the machine's states; a preparation step can only run again.
    const skip = v.state && !v.state.startsWith('prepare:') ? `, or skip it: erasmus workflow skip ${v.projectDir}` : '';
    lines.push(`to go on: fix the cause, then run the step again: erasmus workflow retry ${v.projectDir}${skip}`);
  }
  if (v.timeline.length) {
    lines.push('timeline:');
    for (const e of v.timeline) lines.push(`  ${e.enteredAt}  ${entryLine(e).trim()}`);
  }
  return lines.join('\n');
}
