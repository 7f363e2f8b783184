import { describe, expect, it } from 'vitest';
import { ToolPolicy } from './policy';
import type { AgentTool } from './tools';

const tool = (over: Partial<AgentTool> = {}): AgentTool => ({ name: 'fs__write_file', server: 'fs', tool: 'write_file', toolset: 'fs', description: '', inputSchema: {}, ...over });

describe('ToolPolicy', () => {
  it('allows read-only and non-destructive tools, asks for the rest', async () => {
    const p = new ToolPolicy();
    expect((await p.decideTool(tool({ annotations: { readOnlyHint: true } }), {})).verdict).toBe('allow');
    expect((await p.decideTool(tool({ annotations: { destructiveHint: false } }), {})).verdict).toBe('allow');
    expect(await p.decideTool(tool({ annotations: { destructiveHint: true } }), {})).toMatchObject({ verdict: 'approve', reasons: [expect.stringMatching(/destructive/)] });
    expect((await p.decideTool(tool(), {})).verdict).toBe('approve');
  });

  it("honours the server's alwaysAllow and the user's always-allow", async () => {
    const p = new ToolPolicy();
    expect((await p.decideTool(tool({ alwaysAllow: true }), {})).verdict).toBe('allow');
    p.rememberAlways('fs__write_file');
    expect((await p.decideTool(tool(), {})).verdict).toBe('allow');
    expect((await p.decideTool(tool({ name: 'other' }), {})).verdict).toBe('approve');
  });

  it('--yes approves what needs approval but never what is refused', async () => {
    const p = new ToolPolicy({ autoApprove: true, refuse: ['bad'], classifyCommand: (c) => (c.startsWith('rm -rf /') ? { verdict: 'refuse', reasons: ['removes the root'] } : { verdict: 'run', reasons: [] }) });
    expect((await p.decideTool(tool(), {})).verdict).toBe('allow');
    expect((await p.decideTool(tool({ name: 'bad' }), {})).verdict).toBe('refuse');
    expect(await p.decideCommand('rm -rf /')).toMatchObject({ verdict: 'refuse', reasons: ['removes the root'] });
    // A tool whose argument is a command goes through the classifier even when always allowed.
    p.rememberAlways('runner__run');
    expect((await p.decideTool(tool({ name: 'runner__run' }), { command: 'rm -rf / --no-preserve-root' })).verdict).toBe('refuse');
  });

  it("refuses a session's withheld tools by their server's name, with the reason, even under --yes and always-allow", async () => {
    const p = new ToolPolicy({ autoApprove: true, withhold: { git_commit: 'the workflow commits the component itself' } });
    const commit = tool({ name: 'runners__git_commit', server: 'runners', tool: 'git_commit', alwaysAllow: true });
    p.rememberAlways('runners__git_commit');
    expect(await p.decideTool(commit, { message: 'x' })).toEqual({ verdict: 'refuse', reasons: ['the workflow commits the component itself'] });
    expect((await p.decideTool(tool({ name: 'runners__git_status', server: 'runners', tool: 'git_status', annotations: { readOnlyHint: true } }), {})).verdict).toBe('allow');
    // Only own names count: a property of Object.prototype is not a withheld tool.
    expect((await p.decideTool(tool({ name: 'x__toString', tool: 'toString', annotations: { readOnlyHint: true } }), {})).verdict).toBe('allow');
  });

  it('uses the classifier verdicts for shell commands', async () => {
    const p = new ToolPolicy({ classifyCommand: (c) => ({ verdict: c === 'ls' ? 'run' : 'approve', reasons: [`judged ${c}`] }) });
    expect((await p.decideCommand('ls')).verdict).toBe('allow');
    expect(await p.decideCommand('git push')).toMatchObject({ verdict: 'approve', reasons: ['judged git push'] });
    expect((await new ToolPolicy().decideCommand('ls')).verdict).toBe('approve');
  });

  it('leaves the approval of a command to an always-allowed server that asks itself, but still refuses', async () => {
    const p = new ToolPolicy({ classifyCommand: (c) => (c.startsWith('rm -rf ~') ? { verdict: 'refuse', reasons: ['removes home'] } : { verdict: 'approve', reasons: ['recursive delete'] }) });
    const runner = tool({ name: 'runners__bash_run', server: 'runners', tool: 'bash_run', alwaysAllow: true, annotations: { destructiveHint: true } });
    expect((await p.decideTool(runner, { command: 'rm -rf build' })).verdict).toBe('allow');
    expect((await p.decideTool(runner, { command: 'rm -rf ~' })).verdict).toBe('refuse');
    // The same command through a tool that does not ask for itself still needs approval.
    expect((await p.decideTool(tool({ name: 'other__run', annotations: { destructiveHint: true } }), { command: 'rm -rf build' })).verdict).toBe('approve');
  });

  it('under "ask", an always-allowed server that asks for itself does not waive the question for what it would run unasked', async () => {
    const classifyCommand = (c: string) => (c === 'ls' ? { verdict: 'run' as const, reasons: [] } : { verdict: 'approve' as const, reasons: ['recursive delete'] });
    const runner = tool({ name: 'runners__bash_run', server: 'runners', tool: 'bash_run', alwaysAllow: true, annotations: { destructiveHint: true } });
    const commit = tool({ name: 'runners__git_commit', server: 'runners', tool: 'git_commit', alwaysAllow: true, annotations: { destructiveHint: false } });
    const status = tool({ name: 'runners__git_status', server: 'runners', tool: 'git_status', alwaysAllow: true, annotations: { readOnlyHint: true } });
    const ask = new ToolPolicy({ askAll: true, classifyCommand });
    expect((await ask.decideTool(runner, { command: 'ls' })).verdict).toBe('approve');
    // the server asks for this one itself: one question, not two
    expect((await ask.decideTool(runner, { command: 'rm -rf build' })).verdict).toBe('allow');
    expect((await ask.decideTool(commit, { message: 'x' })).verdict).toBe('approve');
    expect((await ask.decideTool(status, {})).verdict).toBe('allow');
    // the user's "always allow" for the tool still holds
    ask.rememberAlways('runners__git_commit');
    expect((await ask.decideTool(commit, { message: 'x' })).verdict).toBe('allow');
    // without "ask", alwaysAllow waives as before
    const normal = new ToolPolicy({ classifyCommand });
    expect((await normal.decideTool(runner, { command: 'ls' })).verdict).toBe('allow');
    expect((await normal.decideTool(commit, { message: 'x' })).verdict).toBe('allow');
  });
});
