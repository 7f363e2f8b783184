import type { RunRecord } from './run-record';

/**
 * For a debugging step that runs again because the tests still fail: which attempt this is, and what the
 * attempt before changed (read from the timeline, never from the model's word), so a model that changed
 * nothing last time hears so. Undefined on a first attempt.
 */
export function debugRetryNote(timeline: RunRecord['timeline'], state: string, used: number, maxAttempts: number | undefined): string | undefined {
  if (used < 1) return undefined;
  // The attempt before: this state's last finished entry (the machine counts the attempts; a retry by the user starts again at 1).
  let last: RunRecord['timeline'][number] | undefined;
  for (let i = timeline.length - 1; i >= 0 && !last; i--) {
    const e = timeline[i]!;
    if (e.state === state && e.leftAt && e.outcome === 'tests-failed') last = e;
  }
  const changed = last?.files?.map((f) => f.path);
  const before =
    changed === undefined
      ? 'The tests still fail after the attempt before'
      : changed.length
        ? `The attempt before changed ${changed.map((p) => `\`${p}\``).join(', ')}, and the tests still fail`
        : 'The attempt before changed no file, and the tests still fail';
  const of = maxAttempts ? ` of ${maxAttempts}` : '';
  const lastOne = maxAttempts && used + 1 >= maxAttempts ? ' This is the last attempt before the run stops and asks the user.' : '';
  return `This is debugging attempt ${used + 1}${of} for these failures. ${before} (output below): find the cause in the code before you change it.${lastOne}`;
}
