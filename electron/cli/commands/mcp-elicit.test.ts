import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
}));
const { elicitOnTerminal } = await import('./mcp-elicit');
const { withAlwaysAllow } = await import('../../main/mcp/elicitation');
const { ApprovalGrants } = await import('../../main/project/approval-grants');
const { McpHub } = await import('../../main/mcp/hub');
const { Paths } = await import('../../main/paths/index');
const { createFilesServer } = await import('../../servers/files/server');
const { tempHome } = await import('../../../tests/fixtures/mcp/servers');

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
      const granted: string[] = [];
      hub.setElicitationHandler(withAlwaysAllow({ grants, place: () => ({ project: root, runId: 'run-1' }), builtin: (s) => s === 'files' }, elicitOnTerminal, (g) => granted.push(`${g.action}: ${g.words}`)));
      await hub.addInProcessServer('files', createFilesServer({ root }));
      await writeFile(join(root, 'a.txt'), 'a\n');
      answers.push('r');
      await hub.callTool('files', 'write_file', { path: 'a.txt', content: 'A\n' });
      expect(asked).toEqual(['Allow? [y = yes, n = no, c = cancel, r or p = always (above)] ']);
      expect(written.join('')).toContain('  r = Always allow writing files in this project for this run\n  p = Always allow writing files in this project\n');
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('A\n');
      // Kept for the run: the next overwrite goes through without a question, in words.
      await hub.callTool('files', 'write_file', { path: 'a.txt', content: 'AA\n' });
      expect(asked).toHaveLength(1);
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('AA\n');
      expect(granted).toEqual(['Overwrite the existing file a.txt (2 bytes): Always allow writing files in this project for this run']);
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
