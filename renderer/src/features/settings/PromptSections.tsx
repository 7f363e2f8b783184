import { useEffect, useState } from 'react';
import { useClient } from '../../api/context';
import { useRequest } from '../../api/useRequest';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';
import { inputClass, messageOf } from './fields';

/** The system prompt's static sections: the shipped text, and the user's override in ERASMUS_HOME/prompts. */
export function PromptSections() {
  const list = useRequest('settings.prompts.list', {});
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <section aria-labelledby="prompts-h" className="flex flex-col gap-2 text-sm" data-testid="prompt-sections">
      <h3 id="prompts-h" className="font-semibold">Prompt sections</h3>
      <p className="text-slate-600 dark:text-slate-400">
        Every session’s system prompt starts with these. An override (in <code>{list.data?.dir ?? 'prompts/'}</code>) replaces the shipped text; an empty one leaves the section out.
      </p>
      {list.status === 'error' ? <ErrorBanner message={`Could not list the sections: ${list.error}`} /> : null}
      {list.data && list.data.sections.length === 0 ? <p className="text-slate-600 dark:text-slate-400">No prompt sections found.</p> : null}
      <ul className="flex flex-wrap gap-1" aria-label="Sections">
        {list.data?.sections.map((s) => (
          <li key={s.name}>
            <Button variant={selected === s.name ? 'primary' : 'secondary'} aria-pressed={selected === s.name} onClick={() => setSelected(s.name)} data-testid={`section-${s.name}`}>
              {s.name}{s.overridden ? ' (overridden)' : ''}
            </Button>
          </li>
        ))}
      </ul>
      {selected ? <SectionEditor key={selected} name={selected} onChanged={list.reload} /> : null}
    </section>
  );
}

function SectionEditor({ name, onChanged }: { name: string; onChanged: () => void }) {
  const client = useClient();
  const section = useRequest('settings.prompts.get', { name });
  const [text, setText] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (section.status === 'ok') setText(section.data.override ?? section.data.builtin ?? '');
  }, [section.status, section.data]);
  const save = async () => {
    try {
      await client.request('settings.prompts.set', { name, body: text ?? '' });
      setStatus(`Saved your version of ${name}; new sessions use it.`);
      setError(null);
      onChanged();
      section.reload();
    } catch (err) {
      setError(`Could not save ${name}: ${messageOf(err)}`);
    }
  };
  const reset = async () => {
    try {
      const { deleted } = await client.request('settings.prompts.reset', { name });
      setStatus(deleted ? `${name} is back to the shipped text.` : `${name} had no override.`);
      setError(null);
      setText(section.data?.builtin ?? '');
      onChanged();
      section.reload();
    } catch (err) {
      setError(`Could not reset ${name}: ${messageOf(err)}`);
    }
  };
  const data = section.data;
  return (
    <div className="flex flex-col gap-2" data-testid="section-editor">
      {section.status === 'error' ? <ErrorBanner message={section.error} /> : null}
      <label className="flex flex-col gap-1 text-xs">
        {name}{data ? (data.override !== null ? ' — your override' : ' — shipped text (edit and save to override)') : ''}
        <textarea value={text ?? ''} onChange={(e) => setText(e.target.value)} rows={12} disabled={text === null} data-testid="section-text" className={`${inputClass} font-mono`} />
      </label>
      <div className="flex gap-2">
        <Button variant="primary" onClick={() => void save()} disabled={text === null} data-testid="section-save">Save override</Button>
        <Button onClick={() => void reset()} disabled={!data || data.override === null} data-testid="section-reset">{data?.builtin === null ? 'Delete section' : 'Reset to shipped'}</Button>
      </div>
      {status ? <p role="status" className="text-emerald-700 dark:text-emerald-400">{status}</p> : null}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
    </div>
  );
}
