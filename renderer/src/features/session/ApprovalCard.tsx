import { useState } from 'react';
import type { ApprovalDecision } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { ApprovalPreview } from './ApprovalPreview';
import { AskFrame } from './AskFrame';
import { toolName, toolWords } from './toolWords';
import type { SessionItem } from './sessionState';

type Approval = Extract<SessionItem, { kind: 'approval' }>;

const answered: Record<ApprovalDecision, string> = { allow_once: 'Allowed once', always_allow: 'Always allowed', deny: 'Denied' };
const kindWords: Record<Approval['approvalKind'], string> = { tool: 'a tool call', command: 'a command', sampling: 'a model request from a server' };

/** What "always" covers, in words: one tool (or one command line) for the rest of this session or step. */
export function alwaysScope(item: Pick<Approval, 'approvalKind' | 'name'>, scope: 'session' | 'step'): string {
  const what = item.approvalKind === 'command' ? 'this exact command' : item.approvalKind === 'sampling' ? 'this server’s model requests' : toolName(item.name);
  return `Always allow ${what} for the rest of this ${scope === 'step' ? 'workflow step' : 'session'}`;
}

/**
 * An approval the agent waits for: what will happen, why it asks (policy, reviewer), and the three
 * answers. One card per request (the parent keys it by session and request id), focused when it appears.
 */
export function ApprovalCard({ item, scope, step, onDecide }: { item: Approval; scope: 'session' | 'step'; /** The workflow step asking, in words. */ step?: string; onDecide: (d: ApprovalDecision) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const decide = async (d: ApprovalDecision) => {
    setBusy(true);
    setError(null);
    try {
      await onDecide(d);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const open = !item.decision && !item.gone;
  const always = alwaysScope(item, scope);
  return (
    <AskFrame
      label={`Approval: ${toolWords(item.name, item.args, false)}`}
      testId="approval-card"
      state={item.decision ?? (item.gone ? 'gone' : 'waiting')}
      open={open}
      title={open ? 'Approval needed' : item.decision ? answered[item.decision] : 'Not asked any more (the process that asked ended; nothing was done)'}
      subject={<><span className="font-medium" title={item.name} data-testid="approval-words">{toolWords(item.name, item.args)}</span> <span className="text-xs text-slate-600 dark:text-slate-300">({kindWords[item.approvalKind]}){step ? <> · in step <span data-testid="approval-step">{step}</span></> : null}</span></>}
    >
      <ApprovalPreview name={item.name} args={item.args} live={open} />
      {item.reasons.length ? (
        <ul className="list-disc pl-5 text-sm" aria-label="Why approval is needed" data-testid="approval-reasons">
          {item.reasons.map((r, i) => <li key={i}>{r}</li>)}
        </ul>
      ) : null}
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      {open ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="primary" disabled={busy} onClick={() => void decide('allow_once')} data-testid="approve-once" autoFocus>Allow once</Button>
          <Button disabled={busy} onClick={() => void decide('always_allow')} data-testid="approve-always" title={always}>{always}</Button>
          <Button variant="danger" disabled={busy} onClick={() => void decide('deny')} data-testid="approve-deny">Deny</Button>
        </div>
      ) : null}
    </AskFrame>
  );
}
