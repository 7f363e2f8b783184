/** The app's views, in the order of the navigation (Alt+1 … Alt+6). */
export const VIEWS = [
  { id: 'project', label: 'Project' },
  { id: 'timeline', label: 'Timeline' },
  { id: 'session', label: 'Sessions' },
  { id: 'terminal', label: 'Terminal' },
  { id: 'servers', label: 'Servers' },
  { id: 'settings', label: 'Settings' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

/** Alt+digit picks a view; anything else is not ours. */
export function viewForKey(e: { altKey: boolean; ctrlKey: boolean; metaKey: boolean; key: string }): ViewId | null {
  if (!e.altKey || e.ctrlKey || e.metaKey) return null;
  const n = Number(e.key);
  return Number.isInteger(n) && n >= 1 && n <= VIEWS.length ? VIEWS[n - 1]!.id : null;
}
