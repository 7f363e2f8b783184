import { describe, expect, it } from 'vitest';
import { resolveDependencies } from './depends';
import { createToolCallParser } from './parser';
import type { ToolCallEvent, ToolMap, ToolSpec } from './types';

const tools: ToolMap = new Map<string, ToolSpec>([
  ['search', { inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }],
  ['head', { inputSchema: { type: 'object', properties: { path: { type: 'string' }, lines: { type: 'integer' }, opts: { type: 'object' } }, required: ['path'] } }],
]);

function calls(message: string): ToolCallEvent[] {
  const p = createToolCallParser({ tools });
  return [...p.push(message), ...p.end()].filter((e): e is ToolCallEvent => e.type === 'tool_call');
}

describe('resolveDependencies', () => {
  const [first, second] = calls(
    '<search id="s">\n<query>main file</query>\n</search>\n<head>\n<path>{{s.result}}</path>\n<lines>{{ s.result }}</lines>\n<opts>{"why": "{{s.result}}", "keep": "{{x.result}}"}</opts>\n</head>',
  ) as [ToolCallEvent, ToolCallEvent];

  it('the parser records what a call depends on and leaves placeholders in place', () => {
    expect(first).toMatchObject({ id: 's', dependsOn: [] });
    expect(second).toMatchObject({ dependsOn: ['s'], args: { path: '{{s.result}}', lines: '{{ s.result }}', opts: { why: '{{s.result}}', keep: '{{x.result}}' } } });
  });

  it('substitutes the results and coerces by the schema', () => {
    const r = resolveDependencies(second, new Map([['s', '42']]), tools.get('head')?.inputSchema);
    expect(r).toEqual({ ok: true, args: { path: '42', lines: 42, opts: { why: '42', keep: '{{x.result}}' } } });
  });

  it('reports a missing result or a result of the wrong type as data', () => {
    expect(resolveDependencies(second, new Map(), tools.get('head')?.inputSchema)).toEqual({
      ok: false,
      message: 'This call uses the result of "s", which is not available (that call failed or did not run).',
    });
    const r = resolveDependencies(second, new Map([['s', 'src/main.ts']]), tools.get('head')?.inputSchema);
    expect(r).toEqual({ ok: false, message: 'Parameter "lines" must be a number, got "src/main.ts" (after substituting the results it depends on).' });
  });

  it('returns the arguments unchanged when there is nothing to resolve', () => {
    expect(resolveDependencies(first, new Map())).toEqual({ ok: true, args: { query: 'main file' } });
  });
});
