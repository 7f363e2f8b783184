import type { ThemeChoice } from '../../app/theme';

/** Theme and system notifications. */
export function Appearance({ theme, onTheme, notifications, onRequestNotifications }: { theme: ThemeChoice; onTheme: (t: ThemeChoice) => void; notifications: string; onRequestNotifications: () => void }) {
  return (
    <section aria-labelledby="look-h" className="flex flex-col gap-2">
      <h3 id="look-h" className="font-semibold">Appearance and notifications</h3>
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Theme</legend>
        {(['system', 'light', 'dark'] as const).map((t) => (
          <label key={t} className="flex items-center gap-1">
            <input type="radio" name="theme" checked={theme === t} onChange={() => onTheme(t)} data-testid={`theme-${t}`} /> {t}
          </label>
        ))}
      </fieldset>
      <p className="text-sm">
        System notifications: <span data-testid="notification-permission">{notifications}</span>
        {notifications === 'default' ? (
          <button type="button" className="ml-2 text-indigo-700 dark:text-indigo-300 underline focus-visible:outline-2 focus-visible:outline-indigo-500" onClick={onRequestNotifications}>Allow</button>
        ) : null}
      </p>
    </section>
  );
}
