import { describe, expect, it } from 'vitest';
import { buildStepPrompt } from './prompt';
import { onceEachFailure } from './test-output';

// node --test's spec reporter (node 20), as a test gate records it: each failure where it happened, then again at the end.
const NODE_SPEC = `▶ adder
  ✖ A1 adds (3.66ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

    2 !== 3

        at TestContext.<anonymous> (file:///p/test/a.test.mjs:4:34) {
      code: 'ERR_ASSERTION',
      operator: 'strictEqual'
    }

  ✔ A2 ok (0.14ms)
✖ adder (7.53ms)
adding 1 and 1
✖ top fails (1.33ms)
  Error: boom
      at TestContext.<anonymous> (file:///p/test/a.test.mjs:7:33)

ℹ tests 3
ℹ pass 1
ℹ fail 2

✖ failing tests:

test at test/a.test.mjs:4:3
✖ A1 adds (3.66ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  2 !== 3

      at TestContext.<anonymous> (file:///p/test/a.test.mjs:4:34) {
    code: 'ERR_ASSERTION',
    operator: 'strictEqual'
  }

test at test/a.test.mjs:7:1
✖ top fails (1.33ms)
  Error: boom
      at TestContext.<anonymous> (file:///p/test/a.test.mjs:7:33)
`;

const count = (text: string, part: string) => text.split(part).length - 1;

describe('test output in a prompt', () => {
  it("carries each node --test failure once: where it failed, with the list's location above it, and the list names them", () => {
    const out = onceEachFailure(NODE_SPEC);
    expect(count(out, '2 !== 3')).toBe(1);
    expect(count(out, 'Error: boom')).toBe(1);
    expect(out).toContain('▶ adder\n  test at test/a.test.mjs:4:3\n  ✖ A1 adds (3.66ms)\n    AssertionError');
    expect(out).toContain('adding 1 and 1\ntest at test/a.test.mjs:7:1\n✖ top fails (1.33ms)\n  Error: boom');
    expect(out).toContain("✖ failing tests: A1 adds, top fails (each is shown above, with its error and where it is; node's repeat of them here is left out)");
    // Nothing else is touched: the summary counts and the tests' own output stay.
    expect(out).toContain('ℹ tests 3\nℹ pass 1\nℹ fail 2');
    expect(out.split('\n').length).toBeLessThan(NODE_SPEC.split('\n').length);
  });

  it('keeps a listed failure whose first printing was cut off (the tail of a long output), and leaves other output as it is', () => {
    const cut = NODE_SPEC.slice(NODE_SPEC.indexOf('  ✔ A2 ok'));
    const out = onceEachFailure(cut);
    expect(count(out, '2 !== 3')).toBe(1);
    expect(out).toContain('✖ failing tests:\n\ntest at test/a.test.mjs:4:3\n✖ A1 adds (3.66ms)\n  AssertionError');
    expect(out).toContain("✖ failing tests also: top fails (each is shown above, with its error and where it is; node's repeat of it here is left out)");
    expect(count(out, 'Error: boom')).toBe(1);
    const pytest = 'FAILED test_a.py::test_x - assert 1 == 2\n1 failed in 0.01s\n';
    expect(onceEachFailure(pytest)).toBe(pytest);
  });

  it("is what a step's Last test run shows", () => {
    const protocol = { name: 'debugging', description: 'd', toolsets: ['files'], done: 'Tests pass.', prompt: 'Debug.', budget: { maxTurns: 5 }, source: 'builtin' } as unknown as Parameters<typeof buildStepPrompt>[0]['protocol'];
    const prompt = buildStepPrompt({ protocol, instruction: 'Fix it.', contextDocPath: '/h/a.md', testOutput: { command: 'npm test', exitCode: 1, output: NODE_SPEC } });
    expect(count(prompt, '2 !== 3')).toBe(1);
    expect(prompt).toContain('test at test/a.test.mjs:4:3');
  });
});
