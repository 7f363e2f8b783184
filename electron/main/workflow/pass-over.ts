// Steps a component does not need, decided from what its steps changed (never from the model's word), and passed
// over with the reason in words, as a review's "no changes needed" passes over its fixes.
import type { RunRecord } from './run-record';
import type { StateSpec } from './plan';

/** Documentation: Markdown and other prose (not `.txt`, which may be data or a build file: requirements.txt, CMakeLists.txt). */
export const PROSE_FILE = /\.(md|mdx|markdown|rst|adoc)$/i;
/** Type declarations (`index.d.ts`): nothing runs them. */
const DECLARATION_FILE = /\.d\.[cm]?ts$/i;

/** The steps whose changes are the component's work. */
const WORK = /:(development|fixes|debugging|redebugging|documentation)$/;

function listed(paths: string[], max = 4): string {
  return `${paths.slice(0, max).join(', ')}${paths.length > max ? `, and ${paths.length - max} more` : ''}`;
}

/**
 * Why the state's step is not needed for its component, or undefined when it is. A component whose steps so far
 * changed only documentation and declaration files has nothing for its testing and retesting steps to check (so
 * nothing to debug either; the project's whole suite still runs at the final gate); one that changed only
 * documentation needs no documentation step: its changes are the documentation.
 */
export function passOverReason(record: RunRecord, spec: StateSpec): string | undefined {
  if (!spec.component || !['testing', 'retesting', 'documentation'].includes(spec.phase)) return undefined;
  const files = [
    ...new Set(
      record.timeline
        // The component's own work: not the review report the workflow wrote for it.
        .filter((e) => e.component === spec.component && WORK.test(e.state) && !e.rewound && e.leftAt && e.outcome !== 'skipped')
        .flatMap((e) => (e.files ?? []).filter((f) => f.change !== 'deleted').map((f) => f.path)),
    ),
  ];
  if (!files.length) return undefined;
  const docs = files.every((f) => PROSE_FILE.test(f));
  if (spec.phase === 'documentation') return docs ? `its changes are documentation already (${listed(files)}): nothing more to document` : undefined;
  if (!files.every((f) => PROSE_FILE.test(f) || DECLARATION_FILE.test(f))) return undefined;
  return `only ${docs ? 'documentation' : 'declaration and documentation files'} changed (${listed(files)}): nothing for tests to check, nor to debug; the project's tests run at the final gate`;
}
