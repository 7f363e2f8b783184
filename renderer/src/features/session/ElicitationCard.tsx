import { useState } from 'react';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { AskFrame } from './AskFrame';
import { contentOf, fieldsOf } from './elicitationForm';
import { ElicitationField } from './ElicitationField';
import type { ElicitationRequest } from './elicitationStore';

export type Action = 'accept' | 'decline' | 'cancel';

/**
 * A server asks the user: a confirmation (a runner's command, with the reviewer's verdict in its
 * message), a form, or a URL to visit. The answer goes back with mcp.elicitation.respond.
 */
export function ElicitationCard({ request, onSettled }: { request: ElicitationRequest; onSettled: (id: string, action: Action) => void }) {
  const client = useClient();
  const fields = fieldsOf(request.requestedSchema);
  const [values, setValues] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.name, typeof f.default === 'boolean' ? f.default : String(f.default)])),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const answer = async (action: Action) => {
    let content;
    if (action === 'accept' && fields.length) {
      const r = contentOf(fields, values);
      if ('error' in r) return setError(r.error);
      content = r.content;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await client.request('mcp.elicitation.respond', { id: request.id, action, ...(content ? { content } : {}) });
      if (!r.delivered) setError('The server is no longer waiting for this answer.');
      onSettled(request.id, action);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const confirmOnly = fields.length === 0 && request.mode === 'form';
  return (
    <AskFrame label={`${request.server} asks`} testId="elicitation-card" state="waiting" open title={confirmOnly ? 'Approval needed' : 'A server asks'} subject={<code className="font-mono text-xs">{request.server}</code>}>
      <pre className="whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-sm dark:bg-slate-900" data-testid="elicitation-message">{request.message}</pre>
      {request.mode === 'url' && request.url ? (
        <p className="text-sm">Open <a href={request.url} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline dark:text-indigo-300">{request.url}</a>, then accept.</p>
      ) : null}
      {fields.map((f) => <ElicitationField key={f.name} field={f} idPrefix={`el-${request.id}`} value={values[f.name]} onChange={(v) => setValues((x) => ({ ...x, [f.name]: v }))} />)}
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div className="flex gap-2">
        <Button variant="primary" disabled={busy} onClick={() => void answer('accept')} data-testid="elicitation-accept" autoFocus={!fields.length}>{confirmOnly ? 'Allow once' : 'Submit'}</Button>
        <Button variant="danger" disabled={busy} onClick={() => void answer('decline')} data-testid="elicitation-decline">{confirmOnly ? 'Deny' : 'Decline'}</Button>
        <Button variant="ghost" disabled={busy} onClick={() => void answer('cancel')}>Cancel</Button>
      </div>
    </AskFrame>
  );
}
