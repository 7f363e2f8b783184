import { describe, expect, it } from 'vitest';
import type { SessionOutcome } from '../agent/session';
import { AgentExecutor } from './agent-executor';
import { StepSetupError, type StepRequest } from './executor';

const step: StepRequest = {
  runId: 'r1',
  state: 'adder:development',
  protocol: 'development',
  prompt: '# Protocol: development',
  protocolPrompt: 'You are the developer.',
  toolsets: ['files', 'runners'],
  contextDocPath: '/home/ctx/adder.md',
  projectDir: '/p',
  budget: { maxTurns: 5 },
  signal: new AbortController().signal,
};

describe('a workflow step the provider failed', () => {
  it('blocks the run with the provider’s own words (what the timeline and the run error show)', async () => {
    const failed = { sessionId: 's9', logPath: '/h/sessions/s9.jsonl', endedReason: 'error', error: 'Too Many Requests: Rate limit reached. Please retry in 20s. (after 2 attempts)', finalAnswer: '', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: null }, turns: 1 } as unknown as SessionOutcome;
    const ex = new AgentExecutor(async () => failed, { availableToolsets: () => ['files', 'runners'] });
    const err = await ex.run(step).then(() => undefined, (e: Error) => e);
    expect(err?.message).toContain('Please retry in 20s. (after 2 attempts)');
    expect(err?.message).toContain('adder · development');
    expect(err?.message).not.toContain('Failed after');
  });

  it('a session that could not start (config.yaml broken: no provider, no log) is a setup error: no empty "its log", nothing for the retry prompt', async () => {
    const broken = { sessionId: '', logPath: '', endedReason: 'error', error: '/h/config.yaml: providers.0: Unrecognized key: "baseURL"', finalAnswer: '', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: null }, turns: 0 } as unknown as SessionOutcome;
    const ex = new AgentExecutor(async () => broken, { availableToolsets: () => ['files', 'runners'] });
    const err = await ex.run(step).then(() => undefined, (e: Error) => e);
    expect(err).toBeInstanceOf(StepSetupError);
    expect(err?.message).toBe('the model\'s session for adder · development could not start: /h/config.yaml: providers.0: Unrecognized key: "baseURL"; the model did not run. Fix that, then retry the step');
  });
});
