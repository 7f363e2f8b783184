import { useState } from 'react';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';

/**
 * A folder that is no git repository: a run there commits nothing. One button makes it one (git init and a first commit
 * of the files there); the project is opened again, so every view sees the repository.
 */
export function MakeRepository({ path, onMade }: { path: string; onMade: (held: string[]) => void }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const make = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onMade((await client.request('project.makeRepository', { path })).held);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <p>not a git repository: a run here commits nothing (a commit after each component needs one)</p>
      <div>
        <Button onClick={() => void make()} disabled={busy} data-testid="make-repository">
          {busy ? 'Making it a repository…' : 'Make it a git repository (git init, and a first commit of the files here)'}
        </Button>
      </div>
      {error ? <ErrorBanner message={`The repository was not made: ${error}`} /> : null}
    </div>
  );
}

/** After the repository was made: whether its files are its first commit, or which names held them back. */
export function MadeRepository({ held }: { held: string[] }) {
  if (!held.length) return <p role="status">a git repository, made here: the files that were here are its first commit</p>;
  return (
    <p role="status" data-testid="make-repository-held">
      a git repository, made here, but its files are not committed: {held.join(', ')} {held.length > 1 ? 'are' : 'is'} here and no .gitignore leaves {held.length > 1 ? 'them' : 'it'} out. Add a .gitignore and commit the files before a run.
    </p>
  );
}
