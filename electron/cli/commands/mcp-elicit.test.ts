import { afterEach, describe, expect, it, vi } from 'vitest';

const answers: string[] = [];
const asked: string[] = [];
vi.mock('../prompt', () => ({
  ask: (q: string) => {
    asked.push(q);
    return Promise.resolve(answers.shift() ?? '');
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

  it('a form is filled in field by field, with numbers and booleans typed', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    answers.push('y', 'main', '3', 'yes');
    const result = await elicitOnTerminal(req({ branch: { type: 'string', title: 'Branch' }, depth: { type: 'integer' }, force: { type: 'boolean' } }));
    expect(result).toEqual({ action: 'accept', content: { branch: 'main', depth: 3, force: true } });
    expect(asked[0]).toBe('Answer? [y = fill in, n = decline, c = cancel] ');
    expect(asked.slice(1)).toEqual(['Branch: ', 'depth: ', 'force: ']);
  });
});
