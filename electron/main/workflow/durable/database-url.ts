// A durable run's database URL (--database-url, ERASMUS_DATABASE_URL): checked, and shown without its password.

/** A database URL as a run shows it: without its password. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** Refuses a database URL that is not postgres://… (or postgresql://…), saying what was given. */
export function checkDatabaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`the database URL ${JSON.stringify(redactedUrl(url))} is not a URL; give postgres://user:password@host:port/database`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new Error(`the database URL must start with postgres:// (DBOS runs over Postgres), got ${u.protocol}//…`);
  return url;
}
