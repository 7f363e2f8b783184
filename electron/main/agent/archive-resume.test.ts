import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../tests/fixtures/scripted-llm/index';
import { Paths } from '../paths/index';
import { resolveProvider } from './providers/config';
import { runAgentSession, type AgentSessionDeps } from './session';
import { memoryTools } from './tools';

let home: string;
let llm: ScriptedLlm | undefined;
beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'erasmus-archive-'))));
afterEach(async () => {
  await llm?.close();
  rmSync(home, { recursive: true, force: true });
});

const page = 'line of a long file\n'.repeat(200); // ~4,000 characters, ~1,000 tokens a result
const tools = memoryTools({
  files: { description: 'files', tools: [{ name: 'read_file', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, annotations: { readOnlyHint: true }, run: () => page }] },
});

it('after a resume, the new instruction survives archiving three tool turns later', async () => {
  llm = await startScriptedLlm([
    { match: { lastUser: 'Say hello.' }, text: 'Hello!' },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }] },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'b' } }] },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'c' } }] },
    { text: 'Summary written.' },
  ]);
  const deps: AgentSessionDeps = { paths: new Paths(home), sources: { env: {} }, tools };
  const base = await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} });
  // A window that holds the system prompt, both instructions and about two results.
  const provider = { ...base, contextWindow: 4000 };
  const first = await runAgentSession(deps, { task: 'Say hello.', provider, openToolsets: ['files'], autoApprove: true });
  expect(first.endedReason).toBe('complete');
  const instruction = 'Now read files a, b and c and summarize them.';
  const events: { type: string }[] = [];
  const second = await runAgentSession(deps, { task: instruction, provider, resume: first.logPath, openToolsets: ['files'], autoApprove: true, onEvent: (e) => events.push(e) });
  expect(second).toMatchObject({ endedReason: 'complete', finalAnswer: 'Summary written.' });
  expect(events.some((e) => e.type === 'context_archived')).toBe(true);
  const last = llm.requests.at(-1)!.body.messages!;
  const contents = last.map((m) => String(m.content ?? ''));
  expect(contents.some((c) => c.startsWith('[Context note]'))).toBe(true);
  expect(contents).toContain(instruction);
  expect(contents).toContain('Say hello.');
  // The newest results, not yet answered, are there with the call that asked for them.
  expect(last.at(-1)).toMatchObject({ role: 'tool', content: page });
  expect(last.at(-2)).toMatchObject({ role: 'assistant' });
});

it('caps a tool result relative to the model window and keeps the whole output on disk', async () => {
  const huge = 'y'.repeat(50_000);
  const bigTools = memoryTools({ files: { description: 'files', tools: [{ name: 'read_file', description: 'read', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true }, run: () => huge }] } });
  llm = await startScriptedLlm([{ toolCalls: [{ name: 'read_file', arguments: {} }] }, { text: 'ok' }]);
  const base = await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} });
  const small = await runAgentSession({ paths: new Paths(home), sources: { env: {} }, tools: bigTools }, { task: 't', provider: { ...base, contextWindow: 8192 }, openToolsets: ['files'], autoApprove: true });
  expect(small.endedReason).toBe('complete');
  const result = String(llm.requests[1]!.body.messages!.at(-1)!.content);
  expect(result.length).toBeLessThan(7_000);
  const kept = /kept as (\S+\.txt)\./.exec(result)?.[1];
  expect(kept).toBeDefined();
  expect(readFileSync(join(home, 'outputs', kept!), 'utf8')).toBe(huge);
  // A large window lets the whole result through.
  llm.requests.length = 0;
  await llm.close();
  llm = await startScriptedLlm([{ toolCalls: [{ name: 'read_file', arguments: {} }] }, { text: 'ok' }]);
  const wide = await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} });
  await runAgentSession({ paths: new Paths(home), sources: { env: {} }, tools: bigTools }, { task: 't', provider: { ...wide, contextWindow: 200_000 }, openToolsets: ['files'], autoApprove: true });
  expect(String(llm.requests[1]!.body.messages!.at(-1)!.content)).toBe(huge);
});
