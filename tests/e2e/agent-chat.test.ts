// `erasmus chat --json` end to end: the scripted model drives the real filesystem and memory MCP
// servers, in native and xml tool-call modes; the session log holds every event; resume after SIGKILL.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import { readSessionLog, restoreContext } from '../../electron/main/sessions/index';
import { type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { chatHarness, root, sandbox, type ChatRun, type Sandbox } from './agent-cli';

const t = chatHarness();

function start(sb: Sandbox, llm: ScriptedLlm, args: string[]): ChatRun {
  return t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', ...args]);
}

/** Events are well formed and ordered: started first, ended last, each tool_complete after its tool_running. */
function checkOrder(events: AgentEvent[]): void {
  expect(events[0]!.type).toBe('session_started');
  expect(events.at(-1)!.type).toBe('session_ended');
  const running = new Set<string>();
  for (const e of events) {
    if (e.type === 'tool_running') running.add(e.callId);
    if (e.type === 'tool_complete' && !e.refused) expect(running.has(e.callId)).toBe(true);
  }
  const times = events.map((e) => e.at);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
}

function loggedEvents(logPath: string): AgentEvent[] {
  return readSessionLog(logPath).entries.flatMap((e) => (e.type === 'event' ? [e.event] : []));
}

describe('erasmus chat --json against real MCP servers', () => {
  it('native mode: files change, the graph grows, events arrive in order, the log holds them all', async () => {
    const sb = t.sandbox(sandbox());
    const file = join(sb.work, 'notes', 'hello.md');
    const llm = await t.startLlm([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'fs' } }, { name: 'open_toolset', arguments: { name: 'memory' } }] },
      { match: { lastTool: 'memory' }, toolCalls: [{ name: 'fs__create_directory', arguments: { path: join(sb.work, 'notes') } }, { name: 'fs__write_file', arguments: { path: file, content: '# Hello\n<tag>kept</tag>\n' } }] },
      { match: { lastTool: 'Successfully wrote' }, toolCalls: [{ name: 'memory__create_entities', arguments: { entities: [{ name: 'Erasmus', entityType: 'app', observations: ['writes notes'] }] } }] },
      { match: { lastTool: 'Erasmus' }, toolCalls: [{ name: 'memory__read_graph', arguments: {} }] },
      { match: { lastTool: 'writes notes' }, text: 'Wrote notes/hello.md and recorded Erasmus in memory.' },
    ]);
    const run = start(sb, llm, ['-p', 'write a note and remember it', '--tool-mode', 'native', '--yes']);
    expect(await run.exit).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('# Hello\n<tag>kept</tag>\n');
    const graph = readFileSync(sb.memoryFile, 'utf8');
    expect(graph).toContain('"name":"Erasmus"');
    const ev = run.events;
    checkOrder(ev);
    const done = ev.filter((e): e is Extract<AgentEvent, { type: 'tool_complete' }> => e.type === 'tool_complete');
    expect(done.map((e) => e.name)).toEqual(['open_toolset', 'open_toolset', 'fs__create_directory', 'fs__write_file', 'memory__create_entities', 'memory__read_graph']);
    expect(done.every((e) => !e.isError)).toBe(true);
    expect(done.at(-1)!.result).toContain('writes notes');
    expect(ev.find((e) => e.type === 'complete')).toMatchObject({ answer: 'Wrote notes/hello.md and recorded Erasmus in memory.' });
    // Every stdout line is one event; the session log holds the same events in the same order.
    expect(run.stdoutLines.every((l) => JSON.parse(l).type)).toBe(true);
    const logPath = (ev[0] as Extract<AgentEvent, { type: 'session_started' }>).logPath;
    expect(logPath.startsWith(join(sb.home, 'sessions'))).toBe(true);
    expect(loggedEvents(logPath)).toEqual(ev);
    // Export to one JSON document.
    const exported = spawnSync(process.execPath, [join(root, 'bin', 'erasmus.js'), 'sessions', 'export', logPath], { encoding: 'utf8', env: { ...process.env, ERASMUS_HOME: sb.home } });
    expect(exported.status).toBe(0);
    const doc = JSON.parse(exported.stdout) as { format: string; messages: { role: string }[] };
    expect(doc.format).toBe('erasmus-session');
    expect(doc.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    // The model got the tools only after opening the toolsets.
    expect(llm.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(['open_toolset']);
    expect(llm.requests[1]!.body.tools!.map((t) => t.function.name)).toContain('memory__create_entities');
  });

  it('xml mode: calls written in plain text run against the same servers', async () => {
    const sb = t.sandbox(sandbox());
    const file = join(sb.work, 'plain.txt');
    const llm = await t.startLlm([
      { match: { hasTools: false }, text: 'I will open the toolsets.\n<open_toolset>\n<name>fs</name>\n</open_toolset>\n<open_toolset>\n<name>memory</name>\n</open_toolset>' },
      {
        match: { lastUser: 'fs__write_file' },
        text: `Writing the file now.\n<fs__write_file>\n<path>${file}</path>\n<content>line one\n<b>line two</b></content>\n</fs__write_file>\nThen the graph:\n<memory__create_entities>\n<entities>[{"name":"XmlMode","entityType":"test","observations":["plain text calls work"]}]</entities>\n</memory__create_entities>`,
      },
      { match: { lastUser: 'XmlMode' }, text: 'Checking with the shell:\n!cat plain.txt > copy.txt && echo shell-ran\n' },
      { match: { lastUser: 'shell-ran' }, text: 'All done in xml mode.' },
    ]);
    const run = start(sb, llm, ['-p', 'do it in xml', '--tool-mode', 'xml', '--yes']);
    expect(await run.exit).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe("line one\n<b>line two</b>");
    expect(readFileSync(sb.memoryFile, 'utf8')).toContain('"name":"XmlMode"');
    // A `!` line ran through the runners' PTY in the project folder.
    expect(readFileSync(join(sb.work, 'copy.txt'), 'utf8')).toBe('line one\n<b>line two</b>');
    expect(run.events.find((e) => e.type === 'tool_complete' && e.name === '!')).toMatchObject({ isError: false, args: { command: 'cat plain.txt > copy.txt && echo shell-ran' } });
    checkOrder(run.events);
    const started = run.events[0] as Extract<AgentEvent, { type: 'session_started' }>;
    expect(started.toolMode).toBe('xml');
    expect(llm.requests.every((r) => !r.body.tools)).toBe(true);
    expect(String(llm.requests[0]!.body.messages![0]!.content)).toMatch(/open_toolset/);
    // The text around the calls streams as sentences; the calls themselves do not.
    const said = run.events.flatMap((e) => (e.type === 'sentence' ? [e.text] : [])).join('');
    expect(said).toContain('Writing the file now.');
    expect(said).not.toContain('<fs__write_file>');
    expect(loggedEvents(started.logPath)).toEqual(run.events);
  });

  it('without --yes and nobody to ask, a writing call is denied and the model is told', async () => {
    const sb = t.sandbox(sandbox());
    const llm = await t.startLlm([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'fs' } }] },
      { toolCalls: [{ name: 'fs__write_file', arguments: { path: join(sb.work, 'no.txt'), content: 'x' } }] },
      { match: { lastTool: 'needs approval; nobody could be asked' }, text: 'The write was refused.' },
    ]);
    const run = start(sb, llm, ['-p', 'try', '--tool-mode', 'native']);
    expect(await run.exit).toBe(0);
    expect(existsSync(join(sb.work, 'no.txt'))).toBe(false);
    expect(run.events.find((e) => e.type === 'approval_required')).toMatchObject({ name: 'fs__write_file' });
    expect(run.events.find((e) => e.type === 'tool_complete' && e.name === 'fs__write_file')).toMatchObject({ refused: true, isError: true });
  });

  it('exits non-zero when the turn budget runs out', async () => {
    const sb = t.sandbox(sandbox());
    const llm = await t.startLlm([{ repeat: true, toolCalls: [{ name: 'open_toolset', arguments: { name: 'fs' } }] }]);
    const run = start(sb, llm, ['-p', 'loop', '--tool-mode', 'native', '--yes', '--max-turns', '2']);
    expect(await run.exit).toBe(3);
    expect(run.events.at(-1)).toMatchObject({ type: 'session_ended', reason: 'budget', turns: 2 });
  });

  it('MCP sampling requests are answered by the configured model', async () => {
    const sb = t.sandbox(sandbox({ everything: true }));
    const llm = await t.startLlm([
      { match: { system: 'helpful test server' }, text: 'forty-two, sampled' },
      { match: { lastUser: 'six times seven' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'everything' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'everything__trigger-sampling-request', arguments: { prompt: 'six times seven', maxTokens: 20 } }] },
      { match: { lastTool: 'forty-two, sampled' }, text: 'The server got its answer.' },
    ]);
    const run = start(sb, llm, ['-p', 'what is six times seven', '--tool-mode', 'native', '--yes']);
    expect(await run.exit).toBe(0);
    const call = run.events.find((e) => e.type === 'tool_complete' && e.name === 'everything__trigger-sampling-request');
    expect(call).toMatchObject({ isError: false, result: expect.stringContaining('forty-two, sampled') });
    const sampling = llm.requests.find((r) => r.turn === 0)!;
    expect(sampling.body.messages![0]).toMatchObject({ role: 'system', content: 'You are a helpful test server.' });
    expect(sampling.body.tools).toBeUndefined();
  });

  it('resume after SIGKILL mid-session continues with every committed message intact', async () => {
    const sb = t.sandbox(sandbox());
    const a = join(sb.work, 'a.txt');
    const llm = await t.startLlm([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'fs' } }] },
      { toolCalls: [{ name: 'fs__write_file', arguments: { path: a, content: 'before the crash' } }] },
      { label: 'hangs until killed', holdMs: 60_000, text: 'never sent' },
      { match: { lastUser: 'continue' }, toolCalls: [{ name: 'fs__read_text_file', arguments: { path: a } }] },
      { match: { lastTool: 'before the crash' }, text: 'Resumed: a.txt still says "before the crash".' },
    ]);
    const first = start(sb, llm, ['-p', 'write a.txt then think', '--tool-mode', 'native', '--yes']);
    await first.waitFor((e) => e.type === 'tool_complete' && e.name === 'fs__write_file');
    const deadline = Date.now() + 30_000;
    while (llm.requests.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(llm.requests.length).toBe(3);
    first.kill('SIGKILL');
    await first.exit;
    const logPath = (first.events[0] as Extract<AgentEvent, { type: 'session_started' }>).logPath;
    const committed = restoreContext(logPath).messages.map((m) => m.message);
    expect(committed.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(readFileSync(a, 'utf8')).toBe('before the crash');

    const second = start(sb, llm, ['--resume', logPath, '-p', 'continue', '--tool-mode', 'native', '--yes']);
    expect(await second.exit).toBe(0);
    expect(second.events[0]).toMatchObject({ type: 'session_started', resumed: true, logPath });
    expect(second.events.find((e) => e.type === 'complete')).toMatchObject({ answer: 'Resumed: a.txt still says "before the crash".' });
    // The first request after resume carries exactly the committed context plus the new message.
    const sent = llm.requests[3]!.body.messages!;
    expect(sent.length).toBe(committed.length + 1);
    expect(sent[0]).toMatchObject({ role: 'system', content: committed[0]!.content });
    expect(sent.slice(1, -1).map((m) => m.role)).toEqual(committed.slice(1).map((m) => m.role));
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: 'continue' });
    expect(llm.requests[3]!.body.tools!.map((t) => t.function.name)).toContain('fs__read_text_file');
    // One log, both runs, readable whole.
    const all = loggedEvents(logPath);
    expect(all.filter((e) => e.type === 'session_started')).toHaveLength(2);
    expect(restoreContext(logPath).messages.map((m) => m.message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'user', 'assistant', 'tool', 'assistant']);
  });
});
