import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../contract/index';
import { MARKER_PREFIX, planArchive, type ContextEntry } from './context';

const ctx = (...messages: ChatMessage[]): ContextEntry[] => messages.map((message, i) => ({ id: `e${i}`, message }));
const big = 'x'.repeat(2000);
const ids = (es: ContextEntry[] | undefined) => es?.map((e) => e.id);

describe('planArchive', () => {
  it('keeps the latest instruction the user wrote, even when older turns around it leave', () => {
    const entries = ctx(
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Say hello.', instruction: true },
      { role: 'assistant', content: `hello ${big}` },
      { role: 'user', content: 'Now list the files.', instruction: true },
      { role: 'assistant', content: big, toolCalls: [{ id: 'c1', name: 'ls', args: {} }] },
      { role: 'tool', toolCallId: 'c1', name: 'ls', content: big },
      { role: 'assistant', content: big, toolCalls: [{ id: 'c2', name: 'ls', args: {} }] },
      { role: 'tool', toolCallId: 'c2', name: 'ls', content: big },
    );
    const plan = planArchive(entries, 1200)!;
    expect(ids(plan.remove)).toEqual(['e2', 'e4', 'e5']);
    expect(plan.at).toBe(2);
  });

  it('in xml mode an assistant turn leaves with its results, and unanswered results stay', () => {
    const entries = ctx(
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'task', instruction: true },
      { role: 'assistant', content: `<read>${big}</read>` },
      { role: 'user', content: `[read]\n${big}` },
      { role: 'assistant', content: `<read>${big}</read>` },
      { role: 'user', content: `[read]\n${big}` },
    );
    const plan = planArchive(entries, 1100)!;
    expect(ids(plan.remove)).toEqual(['e2', 'e3']);
    // Even a budget nothing fits keeps the newest call with its results.
    expect(ids(planArchive(entries, 10)!.remove)).toEqual(['e2', 'e3']);
  });

  it('folds an earlier marker into the new one', () => {
    const entries = ctx(
      { role: 'system', content: 's' },
      { role: 'user', content: 't', instruction: true },
      { role: 'user', content: `${MARKER_PREFIX} 3 earlier messages of this session were moved out` },
      { role: 'assistant', content: big },
      { role: 'assistant', content: big },
    );
    expect(planArchive(entries, 600)).toMatchObject({ totalArchived: 4, at: 2 });
  });
});
