import { describe, expect, it } from 'vitest';
import { bundleSize } from '../../scripts/bundle-size';

type Hook = (this: { error(msg: string): never }, out: unknown, bundle: Record<string, unknown>) => void;

const chunk = (fileName: string, code: string, isEntry: boolean, imports: string[] = []) => ({ type: 'chunk', fileName, code, isEntry, imports });
/** Random text gzips to about its size: `n` bytes of it. */
const noise = (n: number) => Array.from({ length: n }, () => String.fromCharCode(33 + Math.floor(Math.random() * 90))).join('');

function run(budget: number, bundle: Record<string, unknown>) {
  const lines: string[] = [];
  const plugin = bundleSize({ budget, log: (l) => lines.push(l) });
  const ctx = { error: (msg: string): never => { throw new Error(msg); } };
  const call = () => (plugin.generateBundle as unknown as Hook).call(ctx, {}, bundle);
  return { lines, call };
}

describe('bundleSize', () => {
  it('counts the entry and its static imports as the first view, lazy chunks apart', () => {
    const { lines, call } = run(100 * 1024, { a: chunk('a.js', noise(2000), true, ['b.js']), b: chunk('b.js', noise(1000), false), c: chunk('c.js', noise(5000), false) });
    call();
    expect(lines[0]).toMatch(/first view JS \d+\.\d kB gzipped .*2 chunks\), under the 100\.0 kB goal/);
    expect(lines[1]).toContain('c.js');
  });
  it('fails the build when the first view is over its budget', () => {
    const { call } = run(1024, { a: chunk('a.js', noise(4000), true) });
    expect(call).toThrow(/over the 1\.0 kB budget/);
  });
});
