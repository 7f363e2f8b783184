import { Button } from '../../ui/Button';

export type DirtyTree = 'commit' | 'stash' | 'include';

/** The uncommitted files a new run was refused for (error data `{ dirty: [...] }`), if that is why. */
export function dirtyFiles(err: unknown): string[] | null {
  const data = (err as { data?: { dirty?: unknown } }).data;
  return Array.isArray(data?.dirty) ? (data.dirty as string[]) : null;
}

const DIRTY_CHOICES: Array<{ choice: DirtyTree; label: string; what: string }> = [
  { choice: 'commit', label: 'Commit them first', what: 'one commit of yours, in the repository\'s style, before the run starts' },
  { choice: 'stash', label: 'Stash them', what: 'set aside; git stash pop brings them back' },
  { choice: 'include', label: 'Include them', what: 'left as they are; the run never commits them' },
];

/**
 * A run refused because the project has uncommitted changes: the files, and the three choices as buttons (the core's
 * `dirtyTree`), wherever a run starts (the first Start, a new goal, bringing drifted documents up to date).
 */
export function DirtyTreeChoices({ files, busy, onChoose }: { files: string[]; busy: boolean; onChoose: (choice: DirtyTree) => void }) {
  return (
    <div role="alert" className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="dirty-tree">
      <p className="font-medium">The project has uncommitted changes; a run would mix them with its own work. Nothing was started.</p>
      <p>
        {files.slice(0, 8).map((f) => <code key={f} className="mr-2 font-mono text-xs">{f}</code>)}
        {files.length > 8 ? `and ${files.length - 8} more` : null}
      </p>
      <p>What should happen to them?</p>
      <ul className="flex flex-col gap-1">
        {DIRTY_CHOICES.map((c) => (
          <li key={c.choice}>
            <Button disabled={busy} onClick={() => onChoose(c.choice)} data-testid={`dirty-${c.choice}`}>{c.label}</Button> <span>{c.what}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
