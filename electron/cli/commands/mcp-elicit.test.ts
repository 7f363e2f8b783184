import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../main/api/events';

const answers: string[] = [];
const asked: string[] = [];
vi.mock('../prompt', () => ({
  // Answers from the queue; with none left the question waits, as a person would, until its signal withdraws it.
  ask: (q: string, signal?: AbortSignal) => {
    asked.push(q);
    if (answers.length) return Promise.resolve(answers.shift()!);
    return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('withdrawn'))));
  },
  sayWhileAsking: (text: string) => (process.stderr.write(`${text}\n`), () => undefined),
}));
const { elicitOnTerminal } = await import('./mcp-elicit');
const { ApprovalGrants } = await import('../../main/project/approval-grants');
const { McpHub } = await import('../../main/mcp/hub');
const { Paths } = await import('../../main/paths/index');
const { createFilesServer } = await import('../../servers/files/server');
const { tempHome } = await import('../../../tests/fixtures/mcp/servers');
const { cliApprovalPath, installApprovalPath, terminalApprovals } = await import('../approval-path');
const { Core } = await import('../../main/api/core');
const { allowHostsOf, grantDepsOf } = await import('../../main/api/grant-deps');
const { attachRunners } = await import('../../servers/runners/attach');
const { sandboxStatus } = await import('../../main/runners/pty/sandbox');

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

  it('offers "always allow" with the app card’s scope words; r keeps it for the run, and the next write is not asked', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const root = await mkdtemp(join(tmpdir(), 'erasmus-cli-always-'));
    const home = tempHome();
    const hub = new McpHub({ paths: new Paths(home), bus: new EventBus() });
    try {
      const grants = new ApprovalGrants(join(home, 'trust', 'approvals.json'), (_p, runId) => join(home, 'runs', `${runId}.json`));
      // The path `erasmus workflow` and `erasmus chat` install (it once dropped the offer on its way to the prompt).
      installApprovalPath(hub, cliApprovalPath({ command: 'erasmus workflow', tty: true, grants: { grants, place: () => ({ project: root, runId: 'run-1' }), builtin: (s) => s === 'files' } }));
      await hub.addInProcessServer('files', createFilesServer({ root }));
      await writeFile(join(root, 'a.txt'), 'a\n');
      await writeFile(join(root, 'b.txt'), 'b\n');
      answers.push('r');
      // Two components ask at once: the second question waits its turn, and then the answer to the first covers it.
      await Promise.all([hub.callTool('files', 'write_file', { path: 'a.txt', content: 'A\n' }), hub.callTool('files', 'write_file', { path: 'b.txt', content: 'B\n' })]);
      expect(asked).toEqual(['Allow? [y = yes, n = no, c = cancel, r or p = always (above)] ']);
      expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('B\n');
      // The prompt asks "Allow?"; the server's message is shown without its own. Either write may ask first; the other is
      // then allowed without asking, in words.
      const first = /files asks: Overwrite the existing file ([ab])\.txt \(2 bytes\)\.\n/.exec(written.join(''))?.[1];
      expect(first).toMatch(/^[ab]$/);
      expect(written.join('')).toContain(`Allowed without asking: Overwrite the existing file ${first === 'a' ? 'b' : 'a'}.txt (2 bytes)`);
      expect(written.join('')).toContain('  r = Always allow writing files in this project for this run\n  p = Always allow writing files in this project\n');
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('A\n');
      // Kept for the run: the next overwrite goes through without a question, in words.
      await hub.callTool('files', 'write_file', { path: 'a.txt', content: 'AA\n' });
      expect(asked).toHaveLength(1);
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('AA\n');
      expect(written.join('')).toContain('Allowed without asking: Overwrite the existing file a.txt (2 bytes) (you chose “Always allow writing files in this project for this run”)');
      // A removal is another kind: asked again.
      answers.push('n');
      await hub.callTool('files', 'remove', { path: 'a.txt' });
      expect(asked).toHaveLength(2);
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('AA\n');
    } finally {
      await hub.dispose();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('a file change asked on the terminal', () => {
  it('shows the change as the app\'s card does: an overwrite as a diff, an append as the lines it adds', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const root = await mkdtemp(join(tmpdir(), 'erasmus-cli-preview-'));
    const hub = new McpHub({ paths: new Paths(tempHome()), bus: new EventBus() });
    try {
      installApprovalPath(hub, cliApprovalPath({ command: 'erasmus workflow', tty: true }));
      await hub.addInProcessServer('files', createFilesServer({ root }));
      await writeFile(join(root, 'README.md'), '# demo\n\nold line\n');
      answers.push('y', 'n');
      await hub.callTool('files', 'write_file', { path: 'README.md', content: '# demo\n\nnew line\n' });
      const overwrite = written.join('');
      expect(overwrite).toContain('files asks: Overwrite the existing file README.md (17 bytes).\n  @@ -1,3 +1,3 @@\n   # demo\n   \n  -old line\n  +new line\n');
      await hub.callTool('files', 'append_file', { path: 'README.md', content: 'one\ntwo\n' });
      expect(written.join('').slice(overwrite.length)).toContain('to the existing file README.md (17 bytes).\n  +one\n  +two\n');
      expect(await readFile(join(root, 'README.md'), 'utf8')).toBe('# demo\n\nnew line\n');
    } finally {
      await hub.dispose();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('a command that needs a host the project does not allow', () => {
  it.runIf(sandboxStatus().available)('the terminal offers "allow the host" as the app\'s card does: h adds it to the project\'s allowed hosts and the command reaches it', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (written.push(String(s)), true));
    const home = realpathSync(await mkdtemp(join(tmpdir(), 'erasmus-cli-hosts-')));
    const root = join(home, 'project');
    mkdirSync(root);
    execFileSync('git', ['init', '-q'], { cwd: root });
    const core = new Core({ face: 'cli', home });
    const capture = createServer((r, res) => res.end(`reached ${r.url}`));
    await new Promise<void>((r) => capture.listen(0, '127.0.0.1', () => r()));
    const host = `127.0.0.1:${(capture.address() as { port: number }).port}`;
    try {
      await attachRunners(core);
      await core.dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'project.open', params: { path: root } }, { face: 'cli' });
      await core.hub.whenReady('runners');
      installApprovalPath(core.hub, cliApprovalPath({ command: 'erasmus workflow', tty: true, grants: grantDepsOf(core), allowHosts: allowHostsOf(core) }));
      answers.push('h');
      const r = await core.hub.callTool('runners', 'bash_run', { command: `curl -fsS http://${host}/allowed` });
      expect(written.join('')).toContain(`  h = yes, and allow ${host} for this project (added to its allowed hosts)\n`);
      expect(asked).toEqual(['Allow? [y = yes, n = no, c = cancel, h = allow the host (above)] ']);
      expect((r.content as Array<{ text: string }>)[0]!.text).toContain('reached /allowed');
      expect(JSON.parse(await readFile(join(root, '.erasmus', 'settings.json'), 'utf8')).runners.network.allowedHosts).toEqual([host]);
      expect(written.join('')).toContain(`  allowed for this project: ${host}\n`);
    } finally {
      await new Promise<void>((r) => capture.close(() => r()));
      await core.dispose();
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
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
    // Each prompt names its step (other components' lines may come between a question's header and its prompt); the
    // second question is announced while the first waits (here, with the terminal mocked, before the first is put).
    expect(asked.map((l) => l.split('\n')[0])).toEqual([
      'one more question waits until this one is answered: b · development: command bash_run',
      'approval needed (step a · development): command bash_run {"command":"npm install"}',
      'a · development: allow once [y], always allow [a], deny [n]? ',
      'approval needed (step b · development): command bash_run {"command":"npm install"}',
      'b · development: allow once [y], always allow [a], deny [n]? ',
    ]);
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
