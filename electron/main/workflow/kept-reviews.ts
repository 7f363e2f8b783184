import { stat } from 'node:fs/promises';
import type { Paths } from '../paths/index';

/**
 * The file of a run's review report kept with its documents (`RunRecord.reviews === 'home'`): its own,
 * `runs/<run>.reviews/<scope>.md`; for a run that wrote it before reports were kept per run, the one
 * shared file of that scope.
 */
export async function keptReviewFile(paths: Paths, projectDir: string, runId: string, scope: string): Promise<string> {
  const own = paths.reviewReport(projectDir, runId, scope);
  if (await stat(own).then(() => true, () => false)) return own;
  const shared = paths.sharedReviewReport(projectDir, scope);
  return (await stat(shared).then(() => true, () => false)) ? shared : own;
}
