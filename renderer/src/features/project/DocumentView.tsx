import { useEffect, useState } from 'react';
import type { ResultOf } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { Markdown } from '../../ui/Markdown';

type Doc = ResultOf<'workflow.docs.read'>;

/** One context document: rendered markdown, or a text area while editing; problems the core found are listed. */
export function DocumentView({ doc, name, onSave }: { doc: Doc; name: string; onSave: (text: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(doc.text);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!editing) setText(doc.text);
  }, [doc.text, editing]);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave(text);
      setEditing(false);
    } catch (e) {
      setError(`Not saved: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2" data-testid={`doc-${name}`}>
      <div className="flex items-center gap-2">
        <span className="flex-1 truncate font-mono text-xs text-slate-600 dark:text-slate-400" title={doc.path}>{doc.path}</span>
        {editing ? (
          <>
            <Button variant="primary" onClick={() => void save()} disabled={busy} data-testid="doc-save">Save</Button>
            <Button onClick={() => { setEditing(false); setText(doc.text); }}>Cancel</Button>
          </>
        ) : (
          <Button onClick={() => setEditing(true)} data-testid="doc-edit">Edit</Button>
        )}
      </div>
      {doc.issues?.length ? (
        <ul className="rounded bg-amber-50 p-2 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-200" aria-label="Problems in this document">
          {doc.issues.map((i, k) => <li key={k}>{i.line ? `line ${i.line}: ` : ''}{i.message}</li>)}
        </ul>
      ) : null}
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      {editing ? (
        <textarea aria-label={`Edit ${name}`} value={text} onChange={(e) => setText(e.target.value)} rows={18} className="rounded border border-slate-300 bg-white p-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-900" />
      ) : doc.exists && doc.text.trim() ? (
        <Markdown source={doc.text} className="rounded border border-slate-200 p-3 dark:border-slate-800" />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">Not written yet: the workflow writes it in its preparation steps.</p>
      )}
    </div>
  );
}
