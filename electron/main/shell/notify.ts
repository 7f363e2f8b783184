import { Notification } from 'electron';

/** Shows a system notification when the platform supports it; clicking it runs `onClick`. */
export function notify(title: string, body: string, onClick?: () => void): boolean {
  if (!Notification.isSupported()) return false;
  const n = new Notification({ title, body, silent: false });
  if (onClick) n.on('click', onClick);
  n.show();
  return true;
}
