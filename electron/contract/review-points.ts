import type { WorkflowTimelineEntry } from './methods/workflow';

/**
 * What became of each review of a run (each component's and the final one): its verdict, whether its
 * fixes step ran, and the points left open. One reading of the timeline for the app's completion
 * summary, the CLI's completion lines and the external engine's COMPLETED answer, so a run whose
 * review asked for changes never ends in a plain "complete".
 */

/** The heading a fixes step's final answer lists the review points it did not address under. */
export const LEFT_OPEN_HEADING = 'Left open';

/** The review protocol's verdict for a review that needs no changes (its own line). */
export const NO_CHANGES = /^\W*verdict\W*\s*no changes needed\W*$/im;

/** The review's verdict line ("Verdict: one small fix needed"), without markdown emphasis; undefined when it has none. */
export function verdictOf(report: string): string | undefined {
  for (const raw of report.split('\n')) {
    const line = raw.replace(/[*_#>`]/g, '').trim();
    if (/^verdict\b/i.test(line)) return line.replace(/[.\s]+$/, '').slice(0, 300);
  }
  return undefined;
}

/**
 * The points a fixes step says it left open: the items under its `## Left open` heading ("- none"
 * means none). Undefined when the answer has no such section (the step did not say).
 */
export function leftOpenOf(answer: string): string[] | undefined {
  const lines = answer.split('\n');
  const at = lines.findIndex((l) => /^#{1,6}\s*left open\b/i.test(l.trim()));
  if (at < 0) return undefined;
  const points: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (/^#{1,6}\s/.test(l.trim())) break;
    const m = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(l);
    if (m && m[1]!.trim()) points.push(m[1]!.trim());
  }
  return points.filter((p) => !/^(none|nothing)\b\W*$/i.test(p));
}

/**
 * The points a review that asks for no changes still names as open ("- Open point: the `cli` entry point is not built
 * yet"): the fixes step is passed over, so nobody addresses them; the completion lists them.
 */
export function openPointsOf(report: string): string[] {
  if (!NO_CHANGES.test(report)) return [];
  const points: string[] = [];
  for (const l of report.split('\n')) {
    const m = /^\s*(?:[-*+]|\d+[.)])?\s*\**open points?\b[^:]*:\**\s*(.+)$/i.exec(l);
    if (m && m[1]!.trim()) points.push(m[1]!.trim());
  }
  return points;
}

/** Files a point names (`src/title.js:4` → src/title.js). */
function filesNamed(point: string): string[] {
  return [...point.matchAll(/`([^`\s]+\.[A-Za-z0-9]+)(?::\d+)?`/g)].map((m) => m[1]!.replace(/^\.\//, ''));
}

export interface ReviewOutcome {
  /** The component reviewed, or `final` for the review of the whole product. */
  scope: string;
  /** Where the report is (as the step recorded it). */
  report?: string;
  verdict?: string;
  /**
   * none-needed: the review asked for no changes; addressed: a fixes step ran; skipped: the user
   * skipped the fixes step; pending: no fixes step has run after the review yet.
   */
  fixes: 'none-needed' | 'addressed' | 'skipped' | 'pending';
  /** Review points nobody addressed, in words. */
  open: string[];
  /** The fixes step ran but did not say which points, if any, it left open. */
  unstated?: boolean;
  /** Points the fixes step left open that a later step of the same part changed the named file of, its tests passing after. */
  changedLater?: Array<{ point: string; by: string }>;
}

function scopeOf(state: string): { scope: string; step: string } | undefined {
  const at = state.indexOf(':');
  if (at < 0) return undefined;
  return { scope: state.slice(0, at), step: state.slice(at + 1) };
}

/** Each review of the run in run order (the latest review of a scope counts), with what its fixes step did. */
export function reviewOutcomes(timeline: readonly WorkflowTimelineEntry[]): ReviewOutcome[] {
  const out = new Map<string, ReviewOutcome>();
  for (const e of timeline) {
    const s = scopeOf(e.state);
    if (!s || s.scope === 'prepare' || s.scope === 'orchestration' || !e.leftAt) continue;
    if (s.step === 'review' && e.outcome === 'done') {
      out.delete(s.scope); // a review run again replaces the earlier one, in run order
      // A review asking for no changes keeps the points it still names open (its openPoints).
      out.set(s.scope, { scope: s.scope, ...(e.note ? { report: e.note } : {}), ...(e.verdict ? { verdict: e.verdict } : {}), fixes: 'pending', open: [...(e.openPoints ?? [])] });
      continue;
    }
    const r = out.get(s.scope);
    if (!r) continue;
    if (s.step !== 'fixes') {
      // A later step of the part (a debugging step after the fixes, the final gate's) changed the file a point left open names, and the tests passed after it: not left open.
      const passed = e.test?.passed === true || e.outcome === 'tests-passed';
      if (r.fixes === 'addressed' && passed && e.files?.length && !e.rewound) {
        const changed = new Set(e.files.map((f) => f.path));
        const later = r.open.filter((p) => filesNamed(p).some((f) => changed.has(f)));
        if (later.length) Object.assign(r, { open: r.open.filter((p) => !later.includes(p)), changedLater: [...(r.changedLater ?? []), ...later.map((point) => ({ point, by: e.state }))] });
      }
      continue;
    }
    if (e.outcome === 'skipped' && e.note) Object.assign(r, { fixes: 'none-needed', unstated: undefined });
    else if (e.outcome === 'skipped') Object.assign(r, { fixes: 'skipped', open: [`every point of the report: its fixes step was skipped`], unstated: undefined });
    else if (e.outcome === 'done' || e.outcome === 'tests-passed' || e.outcome === 'tests-failed') {
      Object.assign(r, { fixes: 'addressed', open: e.openPoints ?? [], unstated: e.openPoints === undefined ? true : undefined });
    }
  }
  return [...out.values()];
}

/** The reviews that left something open (or did not say), for a completion that must not read as a plain green. */
export function reviewsLeftOpen(timeline: readonly WorkflowTimelineEntry[]): ReviewOutcome[] {
  return reviewOutcomes(timeline).filter((r) => r.open.length > 0 || r.unstated || r.fixes === 'pending');
}

/** "the final review" / "the review of adder". */
export function reviewName(scope: string): string {
  return scope === 'final' ? 'the final review' : `the review of ${scope}`;
}

/**
 * One line per review left open, in words (the CLI and the external engine's COMPLETED answer). `forReaders`: for people
 * who read the change elsewhere (the pull request): a report kept on this machine (an absolute path, with the run's
 * documents) is not named, as they cannot open it, and one in the project is named from its top (docs/reviews/x.md).
 */
export function reviewsLeftOpenLines(timeline: readonly WorkflowTimelineEntry[], o: { forReaders?: { projectDir?: string } } = {}): string[] {
  const lines: string[] = [];
  for (const r of reviewsLeftOpen(timeline)) {
    const shown = r.report && o.forReaders ? inProject(r.report, o.forReaders.projectDir) : r.report;
    const where = shown ? ` (${shown})` : '';
    const head = `${reviewName(r.scope)}${where}${r.verdict ? ` — ${r.verdict}` : ''}`;
    if (r.fixes === 'pending') lines.push(`${head}: its points were not addressed (no fixes step ran)`);
    else if (r.unstated) lines.push(`${head}: the fixes step did not say whether it left any point open${shown || !r.report ? '; read the report' : ''}`);
    for (const p of r.open) lines.push(`${head}: left open: ${p}`);
  }
  return lines;
}

/** A report's path as the project names it (from its top), or undefined when it lies outside the project. */
function inProject(report: string, projectDir: string | undefined): string | undefined {
  if (!/^(\/|[A-Za-z]:[\\/])/.test(report)) return report;
  const top = projectDir?.replace(/[\\/]+$/, '');
  return top && (report.startsWith(`${top}/`) || report.startsWith(`${top}\\`)) ? report.slice(top.length + 1) : undefined;
}
