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
