import { afterEach, describe, expect, it, vi } from 'vitest';

const answers: string[] = [];
const asked: string[] = [];
vi.mock('../prompt', () => ({
  // Answers from the queue; with none left the question waits, as a person would, until its signal withdraws it.
  ask: (q: string, signal?: AbortSignal) => {
    asked.push(q);
    if (answers.length) return Promise.resolve(answers.shift()!);
    return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('withdrawn'))));
  },
}));
const { elicitOnTerminal } = await import('./mcp-elicit');
const { cliApprovalPath, terminalApprovals } = await import('../approval-path');

const req = (properties: Record<string, unknown>) => ({ server: 'files', params: { mode: 'form' as const, message: 'Overwrite a.txt?', requestedSchema: { type: 'object' as const, properties } } }) as never;

afterEach(() => {
  answers.length = 0;
  asked.length = 0;
});

describe('elicitOnTerminal', () => {
  it('a confirmation (one yes/no field) is one question: y accepts with the field true, n declines', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    answers.push('y');
    expect(await elicitOnTerminal(req({ confirm: { type: 'boolean', title: 'Go ahead', default: true } }))).toEqual({ action: 'accept', content: { confirm: true } });
    expect(asked).toEqual(['Allow? [y = yes, n = no, c = cancel] ']);
    answers.push('n');
    expect(await elicitOnTerminal(req({ confirm: { type: 'boolean' } }))).toEqual({ action: 'decline' });
    answers.push('');
    expect(await elicitOnTerminal(req({}))).toEqual({ action: 'cancel' });
    expect(asked.at(-1)).toBe('Allow? [y = yes, n = no, c = cancel] ');
  });

  it('withdraws the question when the server stops waiting, and says so', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const stop = new AbortController();
    const pending = elicitOnTerminal(req({ confirm: { type: 'boolean' } }), stop.signal);
    stop.abort();
    expect(await pending).toEqual({ action: 'cancel' });
    expect(written.join('')).toContain('(files no longer waits for this answer: its call was cancelled or ended.)');
  });

  it('a form is filled in field by field, with numbers and booleans typed', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    answers.push('y', 'main', '3', 'yes');
    const result = await elicitOnTerminal(req({ branch: { type: 'string', title: 'Branch' }, depth: { type: 'integer' }, force: { type: 'boolean' } }));
    expect(result).toEqual({ action: 'accept', content: { branch: 'main', depth: 3, force: true } });
    expect(asked[0]).toBe('Answer? [y = fill in, n = decline, c = cancel] ');
    expect(asked.slice(1)).toEqual(['Branch: ', 'depth: ', 'force: ']);
  });
});

describe('approvals on the terminal during a parallel run', () => {
  const approval = (step: string) => ({ requestId: step, kind: 'command' as const, name: 'bash_run', args: { command: 'npm install' }, reasons: ['installs packages'], step });

  it('each names the step asking, and two steps in flight are asked one after the other, never at once', async () => {
    // What is written and asked, in one sequence.
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (asked.push(String(s).trim()), true));
    answers.push('y', 'n');
    const signal = new AbortController().signal;
    const [a, b] = await Promise.all([terminalApprovals(approval('a:development'), signal), terminalApprovals(approval('b:development'), signal)]);
    expect([a, b]).toEqual(['allow_once', 'deny']);
    // a's question was asked and answered before b's was shown.
    const q = 'allow once [y], always allow [a], deny [n]? ';
    expect(asked.map((l) => (l === q ? 'ask' : l.split('\n')[0]))).toEqual(['approval needed (step a · development): command bash_run {"command":"npm install"}', 'ask', 'approval needed (step b · development): command bash_run {"command":"npm install"}', 'ask']);
  });

  it("a server's confirmation from a component's worktree names the component, and waits for the approval before it", async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const path = cliApprovalPath({ command: 'erasmus workflow', tty: true });
    const signal = new AbortController().signal;
    const cwd = '/p/.git/erasmus/worktrees/run1/b';
    const confirm = { server: 'runners', params: { mode: 'form', message: `Run this command in ${cwd}?`, requestedSchema: { type: 'object', properties: {} }, _meta: { 'erasmus/approval': { tool: 'bash_run', action: 'Run x', change: 'command', cwd } } } } as never;
    const first = terminalApprovals(approval('a:development'), signal);
    const second = path.elicitation(confirm, signal);
    answers.push('y', 'y');
    expect(await first).toBe('allow_once');
    expect((await second).action).toBe('accept');
    const i = written.findIndex((w) => w.includes('runners asks for component b: Run this command in'));
    expect(i).toBeGreaterThan(written.findIndex((w) => w.includes('approval needed (step a · development)')));
  });
});
