import { useCallback, useEffect, useState } from 'react';
import type { ResultOf } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { DocumentView } from './DocumentView';

const DOCS = [
  { name: 'architecture', label: 'Architecture' },
  { name: 'progress_schedule', label: 'Schedule' },
  { name: 'task_list', label: 'Tasks' },
] as const;
type DocName = (typeof DOCS)[number]['name'];
type Doc = ResultOf<'workflow.docs.read'>;

/** The orchestration documents as they are written (re-read when `version` changes), one tab each. */
export function DocumentsPanel({ projectDir, version }: { projectDir: string; version: string }) {
  const client = useClient();
  const [current, setCurrent] = useState<DocName>('architecture');
  const [docs, setDocs] = useState<Partial<Record<DocName, Doc>>>({});
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const read = await Promise.all(DOCS.map((d) => client.request('workflow.docs.read', { projectDir, doc: d.name })));
      setDocs(Object.fromEntries(read.map((doc, i) => [DOCS[i]!.name, doc])));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [client, projectDir]);
  useEffect(() => {
    void load();
  }, [load, version]);
  const doc = docs[current];
  return (
    <section aria-label="Documents" className="flex flex-col gap-2" data-testid="documents">
      <div role="tablist" aria-label="Documents" className="flex gap-1 border-b border-slate-200 dark:border-slate-800">
        {DOCS.map((d) => (
          <button
            key={d.name}
            role="tab"
            type="button"
            aria-selected={current === d.name}
            onClick={() => setCurrent(d.name)}
            className={`px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${current === d.name ? 'border-b-2 border-indigo-500 font-medium' : 'text-slate-600 dark:text-slate-400'}`}
          >
            {d.label}
            {docs[d.name] && !docs[d.name]!.exists ? <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">(not yet)</span> : null}
          </button>
        ))}
      </div>
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">Could not read the documents: {error}</p> : null}
      {doc ? (
        <DocumentView
          key={current}
          name={current}
          doc={doc}
          onSave={async (text) => {
            const saved = await client.request('workflow.docs.write', { projectDir, doc: current, text });
            setDocs((d) => ({ ...d, [current]: saved }));
          }}
        />
      ) : null}
    </section>
  );
}
