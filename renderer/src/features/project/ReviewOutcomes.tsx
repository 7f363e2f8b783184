import { reviewName, reviewOutcomes, type ReviewOutcome, type WorkflowReport, type WorkflowTimelineEntry } from '../../../../electron/contract/index';
import { humanState } from './labels';

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function outcomeWords(r: ReviewOutcome): string {
  switch (r.fixes) {
    case 'none-needed':
      return r.open.length ? `asked for no changes, naming ${r.open.length} point${r.open.length === 1 ? '' : 's'} still open` : 'asked for no changes';
    case 'skipped':
      return 'its fixes step was skipped';
    case 'pending':
      return 'no fixes step ran';
    case 'addressed':
      return r.open.length ? `fixed, ${r.open.length} point${r.open.length === 1 ? '' : 's'} left open` : r.unstated ? 'fixed; the fixes step did not say whether it left any point open' : 'every point fixed';
  }
}

type KeptReview = NonNullable<WorkflowReport['reviews']>[number];

/** A review report kept with the run's documents (not in the project): read here, where its review is listed. */
function KeptReport({ kept }: { kept: KeptReview }) {
  return (
    <details data-testid={`kept-review-${kept.scope}`}>
      <summary className="cursor-pointer">Read the report: kept with the run's documents, not in the project</summary>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400"><code className="font-mono">{kept.file}</code></p>
      <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded border border-slate-300 p-2 text-xs dark:border-slate-700">{kept.text}</pre>
    </details>
  );
}

/**
 * What each review of a finished run said and what became of it; every point left open is listed. Each review is
 * listed once: its report beside it, to read here when it is kept with the run's documents (`kept`, from the run's
 * report), else where it is in the project.
 */
export function ReviewOutcomes({ timeline, kept = [] }: { timeline: WorkflowTimelineEntry[]; kept?: readonly KeptReview[] }) {
  const reviews = reviewOutcomes(timeline);
  if (!reviews.length) return null;
  return (
    <li data-testid="summary-reviews">
      Reviews:
      <ul className="ml-4 list-disc">
        {reviews.map((r) => {
          const report = kept.find((k) => k.scope === r.scope);
          return (
            <li key={r.scope} data-testid={`summary-review-${r.scope}`}>
              {capitalized(reviewName(r.scope))}
              {r.verdict ? <> ({r.verdict})</> : null}: {outcomeWords(r)}
              {r.report && !report ? <> — <code className="font-mono text-xs">{r.report}</code></> : null}
              {report ? <KeptReport kept={report} /> : null}
              {r.open.length ? (
                <ul className="ml-4 list-[circle]" aria-label={`Points left open by ${reviewName(r.scope)}`}>
                  {r.open.map((p) => <li key={p} data-testid="summary-open-point">{p}</li>)}
                </ul>
              ) : null}
              {r.changedLater?.length ? (
                <ul className="ml-4 list-[circle]" aria-label={`Points of ${reviewName(r.scope)} changed afterwards`}>
                  {r.changedLater.map((c) => <li key={c.point} data-testid="summary-changed-later">{c.point} — changed afterwards by {humanState(c.by)}, and the tests passed</li>)}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </li>
  );
}
