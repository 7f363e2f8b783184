/** A timeline entry names its session by log path (`…/sessions/<id>.jsonl`); the session id is the file's stem. */
export function sessionIdFromLog(logPath: string | undefined): string | null {
  if (!logPath) return null;
  const base = logPath.split(/[\\/]/).pop() ?? '';
  const id = base.replace(/\.jsonl$/, '');
  return /^[A-Za-z0-9._-]{1,128}$/.test(id) ? id : null;
}
