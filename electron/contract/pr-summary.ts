import type { WorkflowReport, WorkflowRunView } from './methods/workflow';
import { reviewsLeftOpenLines } from './review-points';

/** What a pull request's body is built from: the run as recorded, and its report (the tests Erasmus ran, per task). */
type RunFacts = Pick<WorkflowRunView, 'goal' | 'plan' | 'timeline'> & { projectDir?: string };

/** The commits of an unfinished earlier run whose branch this run started on: they come along into the base. */
export interface EarlierWork {
  branch: string;
  runId?: string;
  commits: Array<{ sha: string; subject: string }>;
  files: string[];
}

/** A file list shown in a line: the first few, then how many more. */
function fileList(paths: string[], max = 8): string {
  const shown = paths.slice(0, max).map((p) => `\`${p}\``);
  return `${shown.join(', ')}${paths.length > max ? `, and ${paths.length - max} more` : ''}`;
}

/**
 * A pull request's body for a finished run, in Markdown: the goal, what changed per component (its files and
 * commit), the tests the final gate ran, each task with the tests that verify it, and any review point left
 * open. Built only from what Erasmus recorded, never from the model's account.
 */
export function pullRequestBody(run: RunFacts, report: WorkflowReport, earlier?: EarlierWork): string {
  const lines: string[] = [];
  if (run.goal?.trim()) lines.push('## Goal', '', run.goal.trim(), '');
  lines.push('## What changed', '');
  if (earlier?.commits.length) {
    // Read from git, not this run's record: the work of the run whose branch this one started on, in the same diff.
    const n = earlier.commits.length;
    lines.push(`- **Work of an earlier, unfinished run** (branch \`${earlier.branch}\`${earlier.runId ? `, run ${earlier.runId}` : ''}), which this run started on and which comes along: ${n} commit${n === 1 ? '' : 's'}${earlier.files.length ? `, ${fileList(earlier.files)}` : ''}`);
    for (const c of earlier.commits) lines.push(`  - ${c.sha.slice(0, 10)} ${c.subject}`);
  }
  const scopes = [...(run.plan?.components ?? []).map((c) => ({ id: c.id, title: c.title })), { id: 'final', title: 'End-to-end phase' }];
  for (const s of scopes) {
    const entries = run.timeline.filter((e) => !e.rewound && (e.component === s.id || e.state.startsWith(`${s.id}:`)));
    const committed = entries.filter((e) => e.state === `${s.id}:commit` && e.outcome === 'committed' && e.commit).at(-1);
    const commit = committed?.commit;
    // What its commit holds; else what its steps were seen to change (a step cut short by a crash has no list, and its
    // retry, told not to make those changes again, does not list them either).
    const files = [...new Set((committed?.files ?? entries.flatMap((e) => e.files ?? [])).map((f) => f.path))];
    if (!files.length && !commit) continue;
    const head = s.id === 'final' ? `**${s.title}**` : `**${s.title}** (\`${s.id}\`)`;
    lines.push(`- ${head}${files.length ? `: ${fileList(files)}` : ''}${commit ? ` — ${commit.slice(0, 10)}` : ''}`);
  }
  const gates = run.timeline.filter((e) => e.test && e.leftAt && !e.rewound && e.state.startsWith('final:'));
  const lastGate = gates.at(-1)?.test;
  lines.push('', '## Tests', '');
  if (lastGate) lines.push(`- \`${lastGate.command}\`: ${lastGate.passed ? 'passed' : `failed (exit ${lastGate.exitCode ?? 'unknown'})`}`);
  else if (report.finalTestCommand) lines.push(`- \`${report.finalTestCommand}\` (the final gate did not run)`);
  else lines.push('- No test command ran at the end.');
  if (report.tasks.length) {
    lines.push('', `## Tasks${report.verified ? ' (each verified by a passing test)' : ''}`, '');
    for (const t of report.tasks) {
      const ok = t.tests.length > 0 && t.tests.every((x) => x.passed);
      const tests = t.tests.length ? `: ${t.tests.map((x) => `${x.name}${x.passed ? '' : ' (FAILS)'}`).join('; ')}` : ' (no test names it)';
      // An earlier goal's task, committed before this run: its test ran again in this run's gates.
      lines.push(`- [${ok ? 'x' : ' '}] ${t.id} ${t.title}${t.earlier ? " (an earlier goal's task)" : ''}${tests}`);
    }
  }
  // Read where the pull request is read: no path on this machine (a review kept with the run's documents).
  const open = reviewsLeftOpenLines(run.timeline, { forReaders: { projectDir: run.projectDir } });
  if (open.length) lines.push('', '## Left open', '', ...open.map((l) => `- ${l}`));
  return lines.join('\n') + '\n';
}
