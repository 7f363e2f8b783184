// Model-realistic mistakes through `erasmus chat --json` (xml mode unless a case says otherwise) on the
// default path: a fresh home, a `git init` folder with README.md, only the built-in toolsets. For each,
// the outcome a good host gives: the call runs, or the model gets a correction that names the fix. The
// scripted model answers "Done." only when the next request holds that outcome (else the scripted
// server fails the request and the case fails); no session ends `complete` on an unhandled call, and
// none hangs (each case has a turn budget and a time limit).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import type { Pattern, ScriptTurn } from '../fixtures/scripted-llm/script';
import { chatHarness, defaultSandbox, sandbox } from './agent-cli';

const t = chatHarness();

interface Case {
  name: string;
  /** The model's first message (xml mode) or native tool calls. */
  say: string | ScriptTurn['toolCalls'];
  /** What the next request's last message must hold (the result or the correction). */
  next: Pattern;
  /** More turns after the first (default: "Done." once `next` holds). */
  then?: ScriptTurn[];
  mode?: 'xml' | 'native';
  yes?: boolean;
  /** The sandbox's extra servers (server-filesystem as `fs`, server-memory) besides the built-in ones. */
  extraServers?: boolean;
  /** Agent requests the session makes (default 2). */
  requests?: number;
  check?: (o: { work: string; events: AgentEvent[]; bodies: string[] }) => void;
}

const x = (tool: string, params: Record<string, string>) => `<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join('\n')}\n</${tool}>`;
const READ = x('files__read_file', { path: 'README.md' });
const re = (regex: string): Pattern => ({ regex });
const completes = (events: AgentEvent[]) => events.filter((e) => e.type === 'tool_complete') as Extract<AgentEvent, { type: 'tool_complete' }>[];

const cases: Case[] = [
  { name: 'bare name before its toolset is open', say: `Reading the readme.\n${x('read_file', { path: 'README.md' })}`, next: re('Toolset "files" was opened for this call[\\s\\S]*hello from the readme') },
  { name: 'qualified name before its toolset is open', say: READ, next: re('\\[files__read_file\\]\\n\\[Toolset "files" was opened[\\s\\S]*hello from the readme') },
  {
    name: 'open and call in one message: both run, in order',
    say: `${x('open_toolset', { name: 'files' })}\n${READ}`,
    next: re('^\\[open_toolset\\]\\nToolset "files" is open[\\s\\S]*\\[files__read_file\\]\\nhello from the readme'),
  },
  { name: 'a one-line call inside a sentence runs', say: 'Let me look at <files__read_file><path>README.md</path></files__read_file> first.', next: re('hello from the readme') },
  { name: 'a tag mentioned in a sentence gets a correction', say: 'I will use the <files__read_file> tool to read README.md.', next: re('\\[tool call not run\\][\\s\\S]*<files__read_file> was in a sentence[\\s\\S]*<files__read_file>\\n<path>') },
  { name: 'a call in a code block gets a correction saying so', say: `Here:\n\`\`\`xml\n${READ}\n\`\`\``, next: re('<files__read_file> was inside a code block') },
  { name: 'a call inside <thinking> gets a correction saying so', say: `<thinking>\n${READ}\n</thinking>\nLet me check.`, next: re('<files__read_file> was inside <thinking>') },
  { name: 'a call in inline code gets a correction saying so', say: 'I would run `<files__read_file path="README.md"/>` now.', next: re('inside inline code') },
  {
    name: 'a call cut off by max tokens',
    say: '<files__write_file>\n<path>notes.md</path>\n<content>\n# Notes\nThe first',
    next: re('the message ended inside the "content" parameter\\. Close it with </content> and then close the call with </files__write_file>[\\s\\S]*Write the whole call again'),
    check: ({ events }) => expect(completes(events).filter((e) => e.name === 'files__write_file')).toHaveLength(0),
  },
  { name: 'a closing tag misspelt', say: '<files__read_file>\n<path>README.md</path>\n</files__readfile>\n', next: re('</files__read_file>') },
  { name: 'parameters written as attributes (self-closing)', say: '<files__read_file path="README.md"/>', next: re('hello from the readme') },
  { name: 'parameters written as attributes with a closing tag', say: '<files__read_file path="README.md">\n</files__read_file>', next: re('hello from the readme') },
  { name: 'JSON arguments inside an XML tag', say: '<files__read_file>\n{"path": "README.md"}\n</files__read_file>', next: re('hello from the readme|[Pp]arameter[\\s\\S]*<path>') },
  {
    name: 'a call repeated after its result runs again, with the same result',
    say: READ,
    next: re('hello from the readme'),
    then: [
      { match: { last: re('Toolset "files" was opened') }, text: READ },
      { match: { last: re('^\\[files__read_file\\]\\nhello from the readme') }, text: 'Done.' },
    ],
    requests: 3,
  },
  { name: 'an unknown parameter', say: '<files__read_file>\n<file>README.md</file>\n</files__read_file>', next: re('no parameter "file"[\\s\\S]*Missing required parameter "path"') },
  { name: 'a missing required parameter', say: '<files__write_file>\n<path>notes.md</path>\n</files__write_file>', next: re('Missing required parameter "content"[\\s\\S]*<content>') },
  { name: 'a value of the wrong type', say: '<files__list>\n<limit>many</limit>\n</files__list>', next: re('"limit" must be a number') },
  { name: 'an unknown tool of a known toolset', say: '<files__delete_file>\n<path>README.md</path>\n</files__delete_file>', next: re('There is no tool named "files__delete_file"[\\s\\S]*Toolsets: [\\s\\S]*files') },
  { name: 'open_toolset with a wrong name', say: x('open_toolset', { name: 'filez' }), next: re('filez[\\s\\S]*files') },
  { name: 'open_toolset with its parameter as an attribute', say: '<open_toolset name="files"/>', next: re('Toolset "files" is open') },
  { name: 'a call in the JSON form', say: '```json\n{"tool": "files__read_file", "arguments": {"path": "README.md"}}\n```', next: re('hello from the readme') },
  {
    name: 'results and corrections come back in the order written',
    say: `${READ}\n<files__read_file>\n<file>x</file>\n</files__read_file>\n${x('files__list', { path: '.' })}`,
    next: re('^\\[files__read_file\\][\\s\\S]*hello from the readme[\\s\\S]*\\[tool call not run\\][\\s\\S]*no parameter "file"[\\s\\S]*\\[files__list\\]'),
  },
  {
    name: 'a file written as the example shows ends with exactly one newline',
    say: '<files__write_file>\n<path>notes.md</path>\n<content>\n# Notes\n\nFirst line.\n</content>\n</files__write_file>',
    next: re('created notes.md'),
    check: ({ work }) => expect(readFileSync(join(work, 'notes.md'), 'utf8')).toBe('# Notes\n\nFirst line.\n'),
  },
  {
    name: 'an overwrite that needs approval, with --yes',
    say: '<files__write_file>\n<path>README.md</path>\n<content>\nnew text\nsecond line\n</content>\n</files__write_file>',
    yes: true,
    next: re('replaced README.md'),
    check: ({ work }) => expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('new text\nsecond line\n'),
  },
  {
    name: 'an overwrite that needs approval, without --yes',
    say: '<files__write_file>\n<path>README.md</path>\n<content>\nnew text\nsecond line\n</content>\n</files__write_file>',
    next: re('needs approval; nobody could be asked[\\s\\S]*--yes'),
    check: ({ work }) => expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('hello from the readme\n'),
  },
  { name: '!cmd on its own line runs', say: 'Checking.\n!git status --short\n', next: re('\\[!git status --short\\]\\n\\$ git status --short') },
  { name: '!cmd inside prose is only prose: the answer stands', say: 'You can run !git status yourself to see it.', next: re('never'), requests: 1 },
  {
    name: 'a tag mentioned twice ends the session the second time (told once, never a loop)',
    say: 'I used <files__read_file> earlier.',
    next: re('was in a sentence'),
    then: [{ match: { last: re('was in a sentence') }, text: 'Summary: <files__read_file> was the tool I meant; nothing else to do.' }],
    requests: 2,
  },
  { name: 'a bare name that two toolsets have gets the candidates', say: x('write_file', { path: 'a.txt', content: 'x' }), extraServers: true, next: re('"write_file" is the name of a tool in several toolsets[\\s\\S]*full name of the one you mean: (fs__write_file or files__write_file|files__write_file or fs__write_file)') },
  { name: 'a toolchain the project does not show is still callable by name', say: '<runners__cargo_check>\n</runners__cargo_check>', yes: true, next: re('\\[runners__cargo_check[^\\]]*\\]\\n[\\s\\S]*\\$ cargo check\\n\\[exit code') },
  { name: 'native mode: a bare name before its toolset is open', mode: 'native', say: [{ name: 'read_file', arguments: { path: 'README.md' } }], next: re('hello from the readme') },
  // Played as the model (the chat helper): a bare string as the arguments went back to it as `{}` and "missing path", so it
  // could not see what it had sent.
  { name: 'native mode: arguments that are not an object are quoted back', mode: 'native', say: [{ name: 'files__read_file', arguments: '"README.md"' }], next: re('must be a JSON object of its parameters; you sent \\"README.md\\" \\(a string\\)[\\s\\S]*path \\(string, required\\)') },
  { name: 'native mode: an ambiguous bare name', mode: 'native', extraServers: true, say: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }], next: re('fs__write_file or files__write_file|files__write_file or fs__write_file') },
];

describe('model-realistic mistakes through erasmus chat --json', () => {
  it('has at least 25 cases', () => expect(cases.length).toBeGreaterThanOrEqual(25));

  it.each(cases)('$name', async (c) => {
    const sb = t.sandbox(c.extraServers ? sandbox() : defaultSandbox());
    writeFileSync(join(sb.work, 'README.md'), 'hello from the readme\n');
    const first: ScriptTurn = typeof c.say === 'string' ? { match: { lastUser: 'TASK' }, text: c.say } : { match: { lastUser: 'TASK' }, toolCalls: c.say };
    const llm = await t.startLlm([first, ...(c.then ?? [{ match: { last: c.next }, text: 'Done.' }])]);
    const run = t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', c.mode ?? 'xml', '--max-turns', '4', ...(c.yes ? ['--yes'] : []), '-p', 'TASK: look at the project'], { builtinOnly: !c.extraServers });
    const code = await run.exit;
    const bodies = llm.requests.map((r) => String(r.body.messages?.at(-1)?.content ?? ''));
    const ended = run.events.find((e) => e.type === 'session_ended') as Extract<AgentEvent, { type: 'session_ended' }> | undefined;
    expect(ended?.reason, `${run.stderr()}\nlast messages the model got:\n${bodies.join('\n---\n')}`).toBe('complete');
    expect(code).toBe(0);
    expect(llm.requests).toHaveLength(c.requests ?? 2);
    c.check?.({ work: sb.work, events: run.events, bodies });
  }, 60_000);
});
