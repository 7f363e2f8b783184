import { describe, expect, it } from 'vitest';
import { loadPlace, savePlace } from './place';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('the place a reload comes back to', () => {
  it('keeps the project, the view and the session; drops what it cannot use', () => {
    const s = memory();
    expect(loadPlace(s)).toEqual({});
    savePlace({ project: '/p/adder', view: 'timeline', sessionId: 's-1' }, s);
    expect(loadPlace(s)).toEqual({ project: '/p/adder', view: 'timeline', sessionId: 's-1' });
    s.setItem('erasmus.place', JSON.stringify({ project: 3, view: 'nowhere', sessionId: '../x' }));
    expect(loadPlace(s)).toEqual({});
    s.setItem('erasmus.place', '{broken');
    expect(loadPlace(s)).toEqual({});
  });
});
