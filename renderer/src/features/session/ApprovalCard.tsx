import { useState } from 'react';
import type { ApprovalDecision } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { ApprovalPreview } from './ApprovalPreview';
import type { SessionItem } from './sessionState';

type Approval = Extract<SessionItem, { kind: 'approval' }>;

const answered: Record<ApprovalDecision, string> = { allow_once: 'Allowed once', always_allow: 'Always allowed', deny: 'Denied' };

/** An approval the agent waits for: what will happen, why it asks (policy, reviewer), and the three answers. */
export function ApprovalCard({ item, onDecide }: { item: Approval; onDecide: (d: ApprovalDecision) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const decide = async (d: ApprovalDecision) => {
    setBusy(true);
    setError(null);
    try {
      await onDecide(d);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  const open = !item.decision;
  return (
    <article
      aria-label={`Approval for ${item.name}`}
      data-testid="approval-card"
      data-state={item.decision ?? 'waiting'}
      className={`flex flex-col gap-2 rounded border p-3 ${open ? 'border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950' : 'border-slate-200 dark:border-slate-800'}`}
    >
      <header className="flex items-center gap-2 text-sm">
        <span className="font-medium">{open ? 'Approval needed' : answered[item.decision!]}</span>
        <code className="font-mono text-xs">{item.name}</code>
        <span className="text-xs text-slate-500">({item.approvalKind})</span>
      </header>
      <ApprovalPreview name={item.name} args={item.args} />
      {item.reasons.length ? (
        <ul className="list-disc pl-5 text-sm" aria-label="Why approval is needed" data-testid="approval-reasons">
          {item.reasons.map((r, i) => <li key={i}>{r}</li>)}
        </ul>
      ) : null}
      {error ? <p role="alert" className="text-sm text-red-600">{error}</p> : null}
      {open ? (
        <div className="flex gap-2">
          <Button variant="primary" disabled={busy} onClick={() => void decide('allow_once')} data-testid="approve-once" autoFocus>Allow once</Button>
          <Button disabled={busy} onClick={() => void decide('always_allow')} data-testid="approve-always">Always allow</Button>
          <Button variant="danger" disabled={busy} onClick={() => void decide('deny')} data-testid="approve-deny">Deny</Button>
        </div>
      ) : null}
    </article>
  );
}
