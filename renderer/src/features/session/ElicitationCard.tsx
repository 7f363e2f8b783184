import { useState, type KeyboardEvent } from 'react';
import { alwaysAllowWords, type GrantScope } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { useAllowHosts } from './AllowHosts';
import { ApprovalPreview } from './ApprovalPreview';
import { AskFrame } from './AskFrame';
import { contentOf, fieldsOf } from './elicitationForm';
import { ElicitationField } from './ElicitationField';
import type { ElicitationRequest } from './elicitationStore';
import { previewArgs, serverWords } from './serverApproval';

export type Action = 'accept' | 'decline' | 'cancel';

/**
 * A server asks the user. A yes/no question (Erasmus's files and runners servers, or any server's
 * question without fields) is an approval: what it does in words, the step it belongs to, the change
 * (a diff, the new content, the command with its folder and sandbox), Allow / Deny, Enter / Escape.
 * A question with fields keeps its form; a URL question shows its link. The answer goes back with
 * mcp.elicitation.respond.
 */
export function ElicitationCard({ request, step, onSettled }: { request: ElicitationRequest; /** The step the question belongs to, in words. */ step?: string; onSettled: (id: string, action: Action | 'gone', always?: string) => void }) {
  const client = useClient();
  const fields = fieldsOf(request.requestedSchema);
  const [values, setValues] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.name, typeof f.default === 'boolean' ? f.default : String(f.default)])),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const yesNo = fields.length === 0 && request.mode === 'form';
  const approval = yesNo ? request.approval : undefined;
  const hosts = useAllowHosts(approval);
  const answer = async (action: Action, always?: GrantScope) => {
    let content;
    if (action === 'accept' && fields.length) {
      const r = contentOf(fields, values);
      if ('error' in r) return setError(r.error);
      content = r.content;
    }
    setBusy(true);
    setError(null);
    try {
      if (action === 'accept') await hosts.commit();
      const r = await client.request('mcp.elicitation.respond', { id: request.id, action, ...(content ? { content } : {}), ...(always ? { always } : {}) });
      // Nothing waits for it any more (the process that asked ended): it was not allowed, whatever was clicked.
      if (!r.delivered) return onSettled(request.id, 'gone');
      onSettled(request.id, action, always && grant ? alwaysAllowWords(grant, always) : undefined);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const preview = approval ? previewArgs(approval) : undefined;
  // "Always allow …" only where the core offers it (Erasmus's own servers, a kind that is safe to allow, an open project).
  const grant = approval?.grant;
  const scopes = grant ? (request.alwaysScopes ?? []) : [];
  const from = serverWords(request.server);
  // Keyboard answers for a yes/no question: Enter allows (the focused Allow button), Escape denies.
  const onKeyDown = (e: KeyboardEvent) => {
    if (!yesNo || busy || e.key !== 'Escape') return;
    e.preventDefault();
    void answer('decline');
  };
  return (
    <div onKeyDown={onKeyDown}>
      <AskFrame
        label={approval ? `Approval: ${approval.action}` : `${from} asks`}
        testId="elicitation-card"
        state="waiting"
        open
        title={yesNo ? 'Approval needed' : request.mode === 'url' ? `${from} asks you to open a page` : `${from} asks`}
        subject={
          <>
            {approval ? <span className="font-medium" data-testid="approval-action">{approval.action}</span> : null}
            <span className="text-xs text-slate-600 dark:text-slate-300">
              {yesNo ? `asked by ${from}` : ''}
              {step ? <>{yesNo ? ' · ' : ''}in step <span data-testid="approval-step">{step}</span></> : null}
            </span>
          </>
        }
      >
        {approval ? null : <pre className="whitespace-pre-wrap break-words rounded bg-white p-2 font-mono text-sm dark:bg-slate-900" data-testid="elicitation-message">{request.message}</pre>}
        {preview ? <ApprovalPreview name={preview.name} args={preview.args} /> : null}
        {approval?.sandbox ? <p className="text-xs text-slate-700 dark:text-slate-300" data-testid="approval-sandbox">{approval.sandbox}</p> : null}
        {hosts.element}
        {approval?.reasons?.length ? (
          <ul className="list-disc pl-5 text-sm" aria-label="Why approval is needed" data-testid="approval-reasons">
            {approval.reasons.map((r, i) => <li key={i}>{r}</li>)}
          </ul>
        ) : null}
        {approval ? (
          <details className="text-xs">
            <summary className="cursor-pointer text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400">The server’s message</summary>
            <pre className="mt-1 whitespace-pre-wrap break-words font-mono" data-testid="elicitation-message">{request.message}</pre>
          </details>
        ) : null}
        {request.mode === 'url' && request.url ? (
          <p className="text-sm">Open <a href={request.url} target="_blank" rel="noreferrer noopener" className="text-indigo-700 underline dark:text-indigo-300">{request.url}</a>, then accept.</p>
        ) : null}
        {fields.map((f) => <ElicitationField key={f.name} field={f} idPrefix={`el-${request.id}`} value={values[f.name]} onChange={(v) => setValues((x) => ({ ...x, [f.name]: v }))} />)}
        {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
        {yesNo ? (
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="primary" disabled={busy} onClick={() => void answer('accept')} data-testid="elicitation-accept" autoFocus>Allow</Button>
            <Button variant="danger" disabled={busy} onClick={() => void answer('decline')} data-testid="elicitation-decline">Deny</Button>
            {grant
              ? scopes.map((scope) => (
                  <Button key={scope} disabled={busy} onClick={() => void answer('accept', scope)} data-testid={`elicitation-always-${scope}`}>
                    {alwaysAllowWords(grant, scope)}
                  </Button>
                ))
              : null}
            <span className="text-xs text-slate-600 dark:text-slate-400">Enter allows · Esc denies</span>
          </div>
        ) : (
          <div className="flex gap-2">
            <Button variant="primary" disabled={busy} onClick={() => void answer('accept')} data-testid="elicitation-accept" autoFocus={!fields.length}>{request.mode === 'url' ? 'Done' : 'Submit'}</Button>
            <Button variant="danger" disabled={busy} onClick={() => void answer('decline')} data-testid="elicitation-decline">Decline</Button>
            <Button variant="ghost" disabled={busy} onClick={() => void answer('cancel')}>Cancel</Button>
          </div>
        )}
      </AskFrame>
    </div>
  );
}
