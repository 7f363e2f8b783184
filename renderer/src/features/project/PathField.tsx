import { useState, type FormEvent, type Ref } from 'react';
import { Button } from '../../ui/Button';

/** Open a folder by typing its absolute path (always available; the only way in browser mode). */
export function PathField({ onOpen, busy, inputRef }: { onOpen: (path: string) => void; busy: boolean; inputRef?: Ref<HTMLInputElement> }) {
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) onOpen(value.trim());
  };
  return (
    <form onSubmit={submit} className="flex gap-2" aria-label="Open a folder by path">
      <label className="sr-only" htmlFor="project-path">Folder path</label>
      <input
        id="project-path"
        ref={inputRef}
        data-testid="project-path"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        placeholder="/absolute/path/to/project"
        className="flex-1 rounded border border-slate-300 bg-white px-3 py-1.5 font-mono text-sm dark:border-slate-600 dark:bg-slate-900"
      />
      <Button type="submit" variant="primary" disabled={busy || !value.trim()} data-testid="open-path">
        Open
      </Button>
    </form>
  );
}
