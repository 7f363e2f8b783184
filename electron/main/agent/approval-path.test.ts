import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../contract/index';
import { Paths } from '../paths/index';
import { AgentService } from './service';
import { acceptWithDefaults, approvalPath, NOBODY_ASKED, UnansweredApproval, unansweredReason } from './approval-path';

const form = (requestedSchema: Record<string, unknown>) => ({ server: 'files', params: { mode: 'form' as const, message: 'Overwrite a.txt. Allow?', requestedSchema } }) as Parameters<typeof acceptWithDefaults>[0];
const req = { requestId: 'r1', kind: 'tool' as const, name: 'files__remove', args: {}, reasons: ['destructive'] };
const signal = new AbortController().signal;

describe('one approval path', () => {
  it('--yes approves the agent and accepts a confirmation with its defaults', async () => {
    const p = approvalPath({ yes: true });
    expect(p.autoApprove).toBe(true);
    expect(await p.approvals(req, signal)).toBe('allow_once');
    expect(await p.elicitation(form({ type: 'object', properties: { confirm: { type: 'boolean', default: true }, level: { type: 'string', enum: ['a', 'b'] } } }), signal)).toEqual({ action: 'accept', content: { confirm: true, level: 'a' } });
    expect(await p.elicitation(form({ type: 'object', properties: {} }), signal)).toEqual({ action: 'accept', content: {} });
  });

  it('--yes does not make up a required answer: the form is declined with the reason', () => {
    const r = acceptWithDefaults(form({ type: 'object', properties: { token: { type: 'string' } }, required: ['token'] }));
    expect(r.action).toBe('decline');
    expect(unansweredReason(r)).toMatch(/asks for token, which --yes cannot fill in/);
  });

  it('nobody to ask: the agent gets an immediate refusal and the servers a decline, both with the reason', async () => {
    const p = approvalPath({ nobodyBecause: 'erasmus chat runs with --json and without --yes' });
    await expect(p.approvals(req, signal)).rejects.toBeInstanceOf(UnansweredApproval);
    await expect(p.approvals(req, signal)).rejects.toThrow(`${NOBODY_ASKED} (erasmus chat runs with --json and without --yes)`);
    const r = await p.elicitation(form({ type: 'object', properties: {} }), signal);
    expect(r.action).toBe('decline');
    expect(unansweredReason(r)).toBe('erasmus chat runs with --json and without --yes');
  });

  it('someone to ask: their answers are used', async () => {
    const p = approvalPath({ asker: { approval: async () => 'deny', elicitation: async () => ({ action: 'cancel' }) } });
    expect(await p.approvals(req, signal)).toBe('deny');
    expect(await p.elicitation(form({}), signal)).toEqual({ action: 'cancel' });
    expect(unansweredReason({ _meta: {} })).toBeUndefined();
  });
});

describe("an approval of a session in another process (a durable run's worker)", () => {
  const service = (events: AgentEvent[]) => new AgentService({ paths: new Paths(join(tmpdir(), 'erasmus-nowhere')), secrets: { get: async () => undefined }, env: {}, emit: (e) => void events.push(e) });
  const asked = { kind: 'command' as const, name: 'runners__bash', args: { command: 'rm -r build' }, reasons: ['removes files'], step: 'alpha:development' };

  it("goes through the face's path when it set one (the CLI's terminal, or a refusal at once)", async () => {
    const events: AgentEvent[] = [];
    const agent = service(events);
    agent.setApprovals(approvalPath({ nobodyBecause: 'erasmus workflow runs without a terminal' }).approvals);
    await expect(agent.approveElsewhere(asked, signal, 'worker-session')).rejects.toThrow(`${NOBODY_ASKED} (erasmus workflow runs without a terminal)`);
    expect(events).toEqual([]);
  });

  it("else is a card of the worker's session that agent.approve answers", async () => {
    const events: AgentEvent[] = [];
    const agent = service(events);
    const decided = agent.approveElsewhere(asked, signal, 'worker-session');
    const card = events.find((e) => e.type === 'approval_required');
    expect(card).toMatchObject({ sessionId: 'worker-session', kind: 'command', name: 'runners__bash', args: { command: 'rm -r build' }, reasons: ['removes files'] });
    expect(agent.approve('worker-session', 'not-asked', 'allow_once')).toBe(false);
    expect(agent.approve('worker-session', (card as { requestId: string }).requestId, 'always_allow')).toBe(true);
    expect(await decided).toBe('always_allow');
    expect(events.at(-1)).toMatchObject({ type: 'approval_resolved', sessionId: 'worker-session', decision: 'always_allow' });
  });

  it("lists a worker's session as running from its start to its end, and while its approval waits here (a reconnecting window cuts off only what nobody runs)", async () => {
    const events: AgentEvent[] = [];
    const agent = service(events);
    const running = () => agent.list().filter((s) => s.running).map((s) => s.sessionId);
    agent.elsewhereEvent({ type: 'session_started', sessionId: 'w1', at: 1, logPath: '/h/sessions/w1.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false });
    expect(agent.list()).toEqual([{ sessionId: 'w1', logPath: '/h/sessions/w1.jsonl', running: true }]);
    expect(events.map((e) => e.type)).toEqual(['session_started']);
    agent.elsewhereEvent({ type: 'session_ended', sessionId: 'w1', at: 2, reason: 'complete', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: null }, turns: 1 });
    expect(running()).toEqual([]);
    const decided = agent.approveElsewhere(asked, signal, 'worker:alpha:development');
    expect(running()).toEqual(['worker:alpha:development']);
    const card = events.find((e) => e.type === 'approval_required') as { requestId: string };
    agent.approve('worker:alpha:development', card.requestId, 'deny');
    await decided;
    expect(running()).toEqual([]);
  });
});
