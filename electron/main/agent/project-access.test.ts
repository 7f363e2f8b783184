import { describe, expect, it } from 'vitest';
import { PROJECT_ACCESS_META, WORKTREE_META } from '../runners/runner';
import { readOnlyStepRefusal } from '../../servers/runners/execute';
import { scopedTools, worktreeTools } from './project-access';
import type { AgentTool, AgentTools, ToolCallOptions } from './tools';

const tool = (server: string, name: string, readOnly: boolean): AgentTool => ({ name: `${server}__${name}`, server, tool: name, toolset: server, description: name, inputSchema: {}, annotations: { readOnlyHint: readOnly } });
const FILES = [tool('files', 'read_file', true), tool('files', 'list', true), tool('files', 'write_file', false), tool('files', 'append_file', false), tool('files', 'remove', false), tool('files', 'move', false)];
const RUNNERS = [tool('runners', 'bash_run', false)];

function fake(): AgentTools & { calls: Array<{ tool: string; args: Record<string, unknown>; opts: ToolCallOptions }> } {
  const calls: Array<{ tool: string; args: Record<string, unknown>; opts: ToolCallOptions }> = [];
  return {
    calls,
    toolsets: () => [{ name: 'files', description: '' }, { name: 'runners', description: '' }],
    openToolset: async (name) => (name === 'files' ? FILES : RUNNERS),
    call: async (t, args, opts) => (calls.push({ tool: t.name, args, opts }), { content: 'ok', isError: false }),
  };
}
const opts = { signal: new AbortController().signal };

describe('a step\'s project access', () => {
  it('read: the files toolset offers no write tool; runner calls carry the access for the runners server', async () => {
    const base = fake();
    const s = scopedTools(base, 'read');
    expect((await s.openToolset('files')).map((t) => t.tool)).toEqual(['read_file', 'list']);
    expect((await s.openToolset('runners')).map((t) => t.tool)).toEqual(['bash_run']);
    const refused = await s.call(FILES[2]!, { path: 'README.md', content: 'x' }, opts);
    expect(refused).toMatchObject({ isError: true });
    expect(refused.content).toMatch(/this step only reads the project, so write_file is not available here/);
    await s.call(RUNNERS[0]!, { command: 'npm test' }, opts);
    expect(base.calls).toEqual([{ tool: 'runners__bash_run', args: { command: 'npm test' }, opts: { ...opts, meta: { [PROJECT_ACCESS_META]: 'read' } } }]);
  });

  it("a parallel run's component step: every call names its worktree, beside the access", async () => {
    const base = fake();
    const s = scopedTools(worktreeTools(base, '/p/.git/erasmus/worktrees/r/core'), 'read');
    await s.call(RUNNERS[0]!, { command: 'npm test' }, opts);
    expect(base.calls[0]!.opts.meta).toEqual({ [PROJECT_ACCESS_META]: 'read', [WORKTREE_META]: '/p/.git/erasmus/worktrees/r/core' });
    expect(worktreeTools(base, undefined)).toBe(base);
  });

  it('markdown: write_file and append_file on .md files only; no remove or move', async () => {
    const base = fake();
    const s = scopedTools(base, 'markdown');
    expect((await s.openToolset('files')).map((t) => t.tool)).toEqual(['read_file', 'list', 'write_file', 'append_file']);
    expect(await s.call(FILES[2]!, { path: 'docs/usage.md', content: '# Usage' }, opts)).toEqual({ content: 'ok', isError: false });
    const code = await s.call(FILES[2]!, { path: 'src/adder.mjs', content: 'x' }, opts);
    expect(code.isError).toBe(true);
    expect(code.content).toContain('"src/adder.mjs" is not a .md file');
    expect((await s.call(FILES[4]!, { path: 'old.md' }, opts)).isError).toBe(true);
    expect(base.calls.map((c) => c.args.path)).toEqual(['docs/usage.md']);
  });

  it('write (the default) changes nothing', () => {
    const base = fake();
    expect(scopedTools(base, 'write')).toBe(base);
    expect(scopedTools(base, undefined)).toBe(base);
  });

  it('without a sandbox, a read-only step runs only commands the policy knows to be read-only', () => {
    expect(readOnlyStepRefusal('read', false, 'approve', 'no sandbox on darwin')).toMatch(/^this step only reads the project, and commands run without a sandbox here \(no sandbox on darwin\)/);
    expect(readOnlyStepRefusal('read', false, 'run', 'x')).toBeUndefined();
    expect(readOnlyStepRefusal('read', true, 'approve', 'x')).toBeUndefined();
    expect(readOnlyStepRefusal('write', false, 'approve', 'x')).toBeUndefined();
  });
});
