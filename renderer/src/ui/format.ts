/** 1234 ms → "1.2 s", 75_000 → "1 m 15 s". */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  // Rounded once, at the precision shown, then split: 11 m 59.6 s reads "12 m 0 s", never "11 m 60 s".
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100) / 10;
  if (tenths < 60) return `${tenths.toFixed(1)} s`;
  const secs = Math.round(ms / 1000);
  const m = Math.floor(secs / 60);
  if (m < 60) return `${m} m ${secs % 60} s`;
  const mins = Math.round(ms / 60_000);
  return `${Math.floor(mins / 60)} h ${mins % 60} m`;
}

/** 12_345 → "12.3k". */
export function formatTokens(n: number | undefined): string {
  if (n === undefined) return '–';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatCost(usd: number | null | undefined): string {
  if (usd === undefined || usd === null) return '';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
