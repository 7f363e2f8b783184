import { describe, expect, it } from 'vitest';
import { PROJECT_ACCESS_META, WORKTREE_META } from '../runners/runner';
import { readOnlyStepRefusal } from '../../servers/runners/execute';
import { scopedTools, stepTools, stepToolsSection, worktreeTools } from './project-access';
import type { AgentTool, AgentTools, ToolCallOptions } from './tools';

const tool = (server: string, name: string, readOnly: boolean): AgentTool => ({ name: `${server}__${name}`, server, tool: name, toolset: server, description: name, inputSchema: {}, annotations: { readOnlyHint: readOnly } });
const FILES = [tool('files', 'read_file', true), tool('files', 'list', true), tool('files', 'write_file', false), tool('files', 'append_file', false), tool('files', 'remove', false), tool('files', 'move', false)];
const RUNNERS = [tool('runners', 'bash_run', false), tool('runners', 'git_status', true), tool('runners', 'git_commit', false), tool('runners', 'git_add', false), tool('runners', 'git_push', false)];

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
    expect((await s.openToolset('runners')).map((t) => t.tool)).toEqual(['bash_run', 'git_status']);
    const commit = await s.call(RUNNERS[2]!, { message: 'x' }, opts);
    expect(commit.content).toMatch(/this step only reads the project, so git_commit is not available here/);
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
    expect((await s.openToolset('runners')).map((t) => t.tool)).toEqual(['bash_run', 'git_status']);
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

  it('a step that describes the run\'s toolsets lists every tool, and refuses in words what this step may not call', async () => {
    const base = fake();
    const review = stepTools(base, { access: 'read', toolsets: ['files', 'runners'], runToolsets: ['files', 'runners'] });
    expect((await review.openToolset('files')).map((t) => t.tool)).toEqual(FILES.map((t) => t.tool));
    expect(review.refusal!(FILES[2]!, { path: 'README.md' })).toMatch(/^Not done: this step only reads the project, so write_file is not available here/);
    expect(review.refusal!(FILES[0]!, { path: 'README.md' })).toBeUndefined();
    expect((await review.call(FILES[2]!, { path: 'README.md', content: 'x' }, opts)).isError).toBe(true);
    const schedule = stepTools(base, { toolsets: ['files'], runToolsets: ['files', 'runners'] });
    expect(schedule.refusal!(RUNNERS[0]!, { command: 'ls' })).toMatch(/^Not done: this step does not use the runners toolset \(its tools are listed for other steps of this run\)\. Use the tools this step may call \(under "This step's tools"\), or say in your final answer what you need\.$/);
    expect(schedule.refusal!(FILES[2]!, { path: 'src/a.js' })).toBeUndefined();
    expect(base.calls).toEqual([]);
    // What the step may call is said after the shared part, in the tools' own names.
    expect(stepToolsSection({ access: 'read', toolsets: ['files', 'runners'], runToolsets: ['files', 'runners'] }, [...FILES, ...RUNNERS])?.body).toBe(
      'The tools above serve every step of this run. This step may call every one of them except files__write_file, files__append_file, files__remove, files__move, runners__git_commit, runners__git_add and runners__git_push; a call to one of those is refused.',
    );
    expect(stepToolsSection({ toolsets: ['files'], runToolsets: ['files', 'runners'] }, [...FILES, ...RUNNERS], { shellListed: true, shellHere: false })?.body).toBe(
      'The tools above serve every step of this run. This step may call every one of them except those of the runners toolset; a call to one of those is refused.\n`!` lines do not run in this step.',
    );
    expect(stepToolsSection({ access: 'markdown', toolsets: ['files', 'runners'], runToolsets: ['files', 'runners'] }, [...FILES, ...RUNNERS])?.body).toMatch(/except files__remove, files__move, runners__git_commit, runners__git_add and runners__git_push;/);
    expect(stepToolsSection({ toolsets: ['files', 'runners'], runToolsets: ['files', 'runners'] }, [...FILES, ...RUNNERS])).toBeUndefined();
    // Tools no step of the run may call (the workflow commits; the user pushes) are said in every step, with why.
    const withheld = { git_commit: 'a workflow step does not commit: Erasmus commits the component', git_push: 'a workflow step does not push' };
    expect(stepToolsSection({ toolsets: ['files', 'runners'], runToolsets: ['files', 'runners'] }, [...FILES, ...RUNNERS], { withheld })?.body).toBe(
      'The tools above serve every step of this run. This step may call every one of them except runners__git_commit and runners__git_push; a call to one of those is refused.\nrunners__git_commit: a workflow step does not commit: Erasmus commits the component.\nrunners__git_push: a workflow step does not push.',
    );
    // A step that may not use the runners at all hears that once, not each withheld tool's reason again.
    expect(stepToolsSection({ toolsets: ['files'], runToolsets: ['files', 'runners'] }, [...FILES, ...RUNNERS], { withheld })?.body).toBe(
      'The tools above serve every step of this run. This step may call every one of them except those of the runners toolset; a call to one of those is refused.',
    );
    expect(stepToolsSection({ access: 'read' }, FILES)).toBeUndefined();
  });
});
