/** A failed action, said plainly, with a way to dismiss it. */
export function ErrorBanner({ message, onDismiss }: { message: string | null | undefined; onDismiss?: () => void }) {
  if (!message) return null;
  return (
    <div role="alert" className="my-2 flex items-start gap-2 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
      <span className="flex-1 whitespace-pre-wrap">{message}</span>
      {onDismiss ? (
        <button type="button" onClick={onDismiss} aria-label="Dismiss error" className="rounded px-1 focus-visible:outline-2 focus-visible:outline-indigo-500">
          ×
        </button>
      ) : null}
    </div>
  );
}
