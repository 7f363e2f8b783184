import { useEffect, useState } from 'react';
import type { WorkflowReport, WorkflowRunView } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { runReport, runTookMs } from '../../../../electron/contract/run-report';
import { formatCost, formatDuration, formatTokens } from '../../ui/format';
import { componentsBuilt, costByPart, costPartsText, reviewsLeftOpen, runCommits, runRestEnd } from '../../../../electron/contract/index';
import { humanState } from './labels';
import { ReviewOutcomes } from './ReviewOutcomes';
import { RunFinish } from './RunFinish';

/** What a finished run left behind: commits, test runs, reports, time and cost, and its branch's finish (the next goal is asked beside it: NewGoal). */
export function RunSummary({ view, onFinished = () => {} }: { view: WorkflowRunView; onFinished?: () => void }) {
  const saved = useSavedReport(view.runId);
  const commits = runCommits(view.timeline);
  // A rewound step's test run no longer describes the project.
  const tests = view.timeline.filter((e) => e.test && !e.rewound);
  const passed = tests.filter((e) => e.test!.passed).length;
  // A review point nobody addressed turns the summary from a plain green into "complete, with points left open".
  const open = reviewsLeftOpen(view.timeline).length > 0;
  const first = view.timeline[0];
  // Without the time nothing drove it (its process was gone until resume).
  const took = first ? runTookMs(view.timeline, runRestEnd(view)) : 0;
  // The components this run built (a later goal's plan lists the earlier goals' too): those it reached the commit of.
  const components = componentsBuilt(view.timeline).length;
  // A documentation run (workflow drift --fix, DriftNotice) developed no task: it has nothing to verify.
  const docsRun = view.plan?.documents;
  // What the tests Erasmus ran (read from the runners' reports) verify, task by task.
  const report = runReport(view);
  // The end-to-end testing step that wrote no test: its "tests passed" checked nothing of the product as a whole.
  const noE2e = view.timeline.findLast((e) => e.state === 'final:testing' && !e.rewound && e.leftAt)?.note?.includes('added or changed no test file');
  const unverified = report.tasks.filter((t) => !t.tests.length || t.tests.some((x) => !x.passed));
  return (
    <section
      aria-labelledby="summary-h"
      className={`flex flex-col gap-2 rounded-lg border p-4 text-sm ${open ? 'border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950' : 'border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950'}`}
      data-testid="run-summary"
      data-open-points={open ? 'yes' : 'no'}
    >
      <h3 id="summary-h" className={`font-semibold ${open ? 'text-amber-900 dark:text-amber-200' : 'text-emerald-900 dark:text-emerald-200'}`}>
        {open ? 'The run is complete, with review points left open' : 'The run is complete'}
      </h3>
      <ul className="flex flex-col gap-1">
        <li>{docsRun ? `Documentation brought up to date (${[...docsRun.components.map((c) => `component ${c}`), ...(docsRun.architecture ? ['the architecture'] : [])].join(', ')})` : `${components} component${components === 1 ? '' : 's'} built`} in {formatDuration(took)}, {formatTokens(view.totals.totalTokens)} tokens {formatCost(view.totals.costUsd)}</li>
        {noE2e ? <li data-testid="summary-no-e2e">The final testing step added or changed no test file: no end-to-end test checks the product as a whole (its gate ran the components' tests only).</li> : null}
        <li data-testid="summary-cost">
          Cost per part: {costPartsText(costByPart(view.timeline), { tokens: formatTokens, cost: (usd) => formatCost(usd), sep: ' · ', hint: 'set the model’s prices in Settings → Providers' }) || 'no model was used'}
        </li>
        <li data-testid="summary-commits">
          {commits.length ? <>Commits: {commits.map((e) => <code key={e.commit} className="mr-1 font-mono text-xs" title={humanState(e.state)}>{e.commit.slice(0, 10)}</code>)}</> : 'No commits (nothing changed).'}
        </li>
        <li data-testid="summary-tests">{tests.length ? `Test runs: ${passed} passed of ${tests.length}${tests.length > passed ? ' (the failures were fixed in later runs)' : ''}` : 'No test runs.'}</li>
        <ReviewOutcomes timeline={view.timeline} kept={saved?.reviews ?? []} />
        {docsRun ? <li data-testid="summary-verified">Nothing to verify: this run wrote documentation only.</li> : <li data-testid="summary-verified">
          {report.verified
            ? `Verified: every task (${report.tasks.length}) has passing tests that Erasmus ran.`
            : `Not verified: ${unverified.length ? `${unverified.map((t) => t.id).join(', ')} ${unverified.length === 1 ? 'has' : 'have'} no passing test that Erasmus ran and that names ${unverified.length === 1 ? 'it' : 'them'}` : 'the plan has no tasks'}${report.untraced.length ? ' (some test runs wrote no report Erasmus can read)' : ''}.`}
          <details className="mt-1">
            <summary className="cursor-pointer">Tasks and their tests</summary>
            <ul className="mt-1 flex flex-col gap-1 pl-4">
              {report.tasks.map((t) => (
                <li key={t.id} data-testid={`summary-task-${t.id}`}>
                  <span className="font-mono text-xs">{t.id}</span> {t.title}
                  {t.commit ? <code className="ml-1 font-mono text-xs">{t.commit.slice(0, 10)}</code> : ' (not committed)'}
                  <ul className="pl-4 text-xs">
                    {t.tests.length ? t.tests.map((x) => <li key={`${x.file ?? ''}${x.name}`}>{x.passed ? 'pass' : 'FAIL'} — {x.name}{x.file ? ` (${x.file})` : ''}</li>) : <li>no test names {t.id}</li>}
                  </ul>
                </li>
              ))}
            </ul>
          </details>
        </li>}
      </ul>
      <RunFinish view={view} pr={saved?.pullRequest ?? null} onFinished={onFinished} />
    </section>
  );
}

/** The run's report as the core keeps it: the pull request, and the review reports kept with the run's documents. */
function useSavedReport(runId: string): WorkflowReport | null {
  const client = useClient();
  const [report, setReport] = useState<WorkflowReport | null>(null);
  useEffect(() => {
    let live = true;
    client.request('workflow.report', { runId }).then(
      (r) => {
        if (live) setReport(r);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, runId]);
  return report;
}
