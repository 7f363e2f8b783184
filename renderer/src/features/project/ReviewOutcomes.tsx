import { reviewName, reviewOutcomes, type ReviewOutcome, type WorkflowTimelineEntry } from '../../../../electron/contract/index';
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

/** What each review of a finished run said and what became of it; every point left open is listed. */
export function ReviewOutcomes({ timeline }: { timeline: WorkflowTimelineEntry[] }) {
  const reviews = reviewOutcomes(timeline);
  if (!reviews.length) return null;
  return (
    <li data-testid="summary-reviews">
      Reviews:
      <ul className="ml-4 list-disc">
        {reviews.map((r) => (
          <li key={r.scope} data-testid={`summary-review-${r.scope}`}>
            {capitalized(reviewName(r.scope))}
            {r.verdict ? <> ({r.verdict})</> : null}: {outcomeWords(r)}
            {r.report ? <> — <code className="font-mono text-xs">{r.report}</code></> : null}
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
        ))}
      </ul>
    </li>
  );
}
