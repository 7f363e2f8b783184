import type { WorkflowReport } from './methods/workflow';
import { humanStatus } from './words';

/** A run's report in words (the CLI's `workflow report`, the workflow_report tool): each task, its tests, its commit. */
export function reportText(r: WorkflowReport): string {
  const missing = r.tasks.filter((t) => !t.tests.length).map((t) => t.id);
  const failing = r.tasks.filter((t) => t.tests.some((x) => !x.passed)).map((t) => t.id);
  const why = [missing.length ? `no test Erasmus ran names ${missing.join(', ')}` : '', failing.length ? `failing tests name ${failing.join(', ')}` : ''].filter(Boolean).join('; ');
  const lines = [
    r.documentation
      ? 'A documentation run: it brought drifted documents up to date and developed no task, so there is nothing to verify.'
      : r.verified
        ? 'Verified: every task has passing tests that Erasmus ran.'
        : `Not verified${why ? `: ${why}` : r.tasks.length ? '' : ': the run has no plan yet'}.`,
    `Run ${r.runId} (${humanStatus(r.status).toLowerCase()})${r.goal ? `: ${r.goal.split('\n')[0]}` : ''}`,
  ];
  if (r.finalTestCommand) lines.push(`Final gate: ${r.finalTestCommand}`);
  let component = '';
  for (const t of r.tasks) {
    if (t.component !== component) {
      component = t.component;
      lines.push('', `${component} — ${t.commit ? `commit ${t.commit.slice(0, 12)}` : t.earlier ? "committed by an earlier run (an earlier goal's tasks; the tests below ran in this run)" : 'not committed'}`);
    }
    lines.push(`  ${t.id}: ${t.title}`);
    if (!t.tests.length) lines.push(`    (no test names ${t.id})`);
    for (const x of t.tests) lines.push(`    ${x.passed ? 'pass' : 'FAIL'}  ${x.name}${x.file ? ` (${x.file})` : ''}`);
  }
  if (r.untraced.length) {
    lines.push('', 'Not traced (the runner wrote no report; only the exit status gated):');
    for (const u of r.untraced) lines.push(`  ${u.state}: ${u.command} — ${u.note}`);
  }
  for (const v of r.reviews ?? []) {
    lines.push('', `${v.scope === 'final' ? 'The final review' : `Review of ${v.scope}`} (kept with the run's documents, not in the project: ${v.file}):`, '', v.text.trimEnd());
  }
  if (r.pullRequest) lines.push('', `Pull request (saved in ${r.pullRequest.file}):`, '', r.pullRequest.title, '', r.pullRequest.body.trimEnd());
  return lines.join('\n');
}
