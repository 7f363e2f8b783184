import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm, type Script } from '../../../tests/fixtures/scripted-llm/index';
import type { AgentEvent } from '../../contract/index';
import { Paths } from '../paths/index';
import { readSessionLog, restoreContext } from '../sessions/index';
import { steeringText } from './loop';
import { resolveProvider } from './providers/config';
import { AgentSession } from './session';
import { memoryTools } from './tools';

let home: string;
let llm: ScriptedLlm | undefined;
/** A slow tool: its call returns when the test lets it go. */
let release: (() => void) | undefined;
let started: Promise<void>;
let markStarted: () => void;
const tools = memoryTools({
  build: {
    description: 'a slow build',
    tools: [{ name: 'build', description: 'build it', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true }, run: () => (markStarted(), new Promise<string>((r) => (release = () => r('built')))) }],
  },
});

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'erasmus-steer-'));
  started = new Promise((r) => (markStarted = r));
});
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  rmSync(home, { recursive: true, force: true });
});

async function session(script: Script, events: AgentEvent[]) {
  llm = await startScriptedLlm(script);
  const provider = await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} });
  return AgentSession.create({ paths: new Paths(home), sources: { env: {} }, tools }, { task: 'build it', provider, openToolsets: ['build'], autoApprove: true, onEvent: (e) => events.push(e) });
}

const steers = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'steer' ? [`${e.state}:${e.text}`] : []));

describe('steering: a message sent while the agent works', () => {
  it('waits for the running call, then reaches the model at its next turn, after the tool result', async () => {
    const events: AgentEvent[] = [];
    const s = await session(
      [
        { match: { lastUser: 'build it' }, toolCalls: [{ name: 'build', arguments: {} }] },
        { match: { lastUser: 'use the debug profile' }, text: 'Switching to the debug profile.' },
        { text: 'Built (did not hear the message).' },
      ],
      events,
    );
    const done = s.run('build it');
    await started;
    s.steer('use the debug profile');
    expect(steers(events)).toEqual(['queued:use the debug profile']);
    // Nothing reached the model while the call ran.
    expect(llm!.requests).toHaveLength(1);
    release!();
    const outcome = await done;
    expect(outcome).toMatchObject({ endedReason: 'complete', finalAnswer: 'Switching to the debug profile.' });
    expect(steers(events)).toEqual(['queued:use the debug profile', 'delivered:use the debug profile']);
    // Delivered after the tool result it was owed, before the next turn began.
    const order = events.map((e) => e.type).filter((t) => ['tool_complete', 'steer', 'turn_started'].includes(t));
    expect(order).toEqual(['turn_started', 'steer', 'tool_complete', 'steer', 'turn_started']);
    const msgs = llm!.requests[1]!.body.messages!;
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user']);
    expect(msgs.at(-1)!.content).toBe(steeringText('use the debug profile'));
    // Not a turn of its own: a resume counts one user turn (the task), so rewinds keep their numbers.
    await s.close();
    expect(restoreContext(outcome.logPath).userTurns).toBe(1);
    const logged = readSessionLog(outcome.logPath).entries.filter((e) => e.type === 'message' && e.message.role === 'user');
    expect(logged.map((e) => e.type === 'message' && e.message.role === 'user' && !!e.message.steered)).toEqual([false, true]);
  });

  it('sent while the model writes its final answer, it is answered too instead of left unread', async () => {
    const events: AgentEvent[] = [];
    const s = await session(
      [
        { match: { lastUser: 'build it' }, text: 'All done here.', chunkSize: 2 },
        { match: { lastUser: 'also add a README' }, text: 'Added the README too.' },
      ],
      events,
    );
    let sent = false;
    s.onEvent((e) => {
      if (e.type === 'sentence' && !sent) {
        sent = true;
        s.steer('also add a README');
      }
    });
    const outcome = await s.run('build it');
    await s.close();
    expect(outcome).toMatchObject({ endedReason: 'complete', finalAnswer: 'Added the README too.', turns: 2 });
    expect(steers(events)).toEqual(['queued:also add a README', 'delivered:also add a README']);
    expect(events.filter((e) => e.type === 'complete')).toHaveLength(1);
  });

  it('refuses a message for a session that is not working (it is a follow-up then)', async () => {
    const s = await session([{ text: 'hi' }], []);
    expect(() => s.steer('hello?')).toThrow(/not working on a task; send the message as a follow-up/);
    await s.close();
  });
});
