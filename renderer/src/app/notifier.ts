/** A notification for the user: always an in-window toast; a system notification when `system` is set and allowed. */
export interface Toast {
  id: number;
  title: string;
  body: string;
  level: 'info' | 'warning' | 'error' | 'success';
  /** Toasts about one thing (an approval's request id) go away together when it is settled. */
  key?: string;
  /** Stays until settled (an approval that still waits), instead of fading after a few seconds. */
  sticky?: boolean;
  /** One button that leads to what the toast is about ("Review" an approval). */
  action?: { label: string; run: () => void };
}

export function systemNotify(title: string, body: string): boolean {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  try {
    new Notification(title, { body });
    return true;
  } catch {
    return false;
  }
}

export function notificationPermission(): string {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}
