import { sessionIdOfLog } from '../../../../electron/contract/run-steps';

/** A timeline entry names its session by log path (`…/sessions/<id>.jsonl`); the session id is the file's stem. */
export function sessionIdFromLog(logPath: string | undefined): string | null {
  return sessionIdOfLog(logPath) ?? null;
}
