import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../agent/providers/config';
import type { SessionOutcome } from '../agent/session';
import { AgentExecutor, agentHandBack, agentTask, cannotFinish, externalFollowUp, missingPartsFollowUp, sharedArchitecture, splitContextDoc, type RunAgentSession } from './agent-executor';
import { buildStepPrompt } from './prompt';
import { lastWordsField, type StepAnswer, type StepRequest } from './executor';
import { LAST_WORDS_MAX } from '../../contract/last-words';
import { FOLLOW_UP_START } from '../../../tests/fixtures/scripted-llm/server';
import { assertConfigReadable, preflightMessage, workflowPreflight } from './preflight';
import { mkdtempSync, rmSync } from 'node:fs';
import { runAgentSession } from '../agent/session';
import { resolveProvider } from '../agent/providers/config';
import { Paths } from '../paths';
import { contentText, startScriptedLlm } from '../../../tests/fixtures/scripted-llm/index';

const step = (over: Partial<StepRequest> = {}): StepRequest => ({
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
  ...over,
});

const outcome = (finalAnswer: string): SessionOutcome =>
  ({ sessionId: 's', logPath: '/l', endedReason: 'complete', finalAnswer, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 }) as unknown as SessionOutcome;

describe('AgentExecutor', () => {
  it('a step whose toolset the hub lacks fails before any model call, naming it and how to recover', async () => {
    let calls = 0;
    const ex = new AgentExecutor(async () => (calls++, outcome('x')), { availableToolsets: () => ['runners'] });
    await expect(ex.run(step())).rejects.toThrow(/step adder:development needs the toolset\(s\) files, which this session does not have \(available: runners\).*retry the step/);
    expect(calls).toBe(0);
  });

  it('tells the run its session’s log as soon as the session starts', async () => {
    const seen: string[] = [];
    const ex = new AgentExecutor(async (o) => {
      o.onEvent?.({ sessionId: 's7', at: 0, type: 'session_started', logPath: '/h/sessions/s7.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false });
      expect(seen).toEqual(['/h/sessions/s7.jsonl']);
      return outcome('Done.');
    }, { availableToolsets: () => ['files', 'runners'] });
    await ex.run(step({ onSession: (log) => seen.push(log) }));
    expect(seen).toEqual(['/h/sessions/s7.jsonl']);
  });

  it("a parallel run's component step works in its worktree: the session's project, and every tool call names it", async () => {
    let got: { project?: string; worktree?: string } = {};
    const ex = new AgentExecutor(async (o) => ((got = { project: o.project, worktree: o.worktree }), outcome('Done.')), { availableToolsets: () => ['files', 'runners'] });
    await ex.run(step({ projectDir: '/p/.git/erasmus/worktrees/r/adder', worktree: '/p/.git/erasmus/worktrees/r/adder' }));
    expect(got).toEqual({ project: '/p/.git/erasmus/worktrees/r/adder', worktree: '/p/.git/erasmus/worktrees/r/adder' });
  });

  it("withholds committing and pushing from a step's session, saying the workflow commits", async () => {
    let withheld: Readonly<Record<string, string>> | undefined;
    const ex = new AgentExecutor(async (o) => ((withheld = o.withholdTools), outcome('Done.')), { availableToolsets: () => ['files', 'runners'] });
    await ex.run(step());
    expect(Object.keys(withheld ?? {})).toEqual(['git_commit', 'git_push']);
    expect(withheld!.git_commit).toMatch(/Erasmus commits the component itself once its tests pass/);
  });

  it('asks once how to answer, and takes the context document from between the marker lines', async () => {
    let task = '';
    const ex = new AgentExecutor(async (o) => ((task = o.task), outcome('Fixed it.\n=== CONTEXT DOCUMENT ===\n# Component: adder\n- fixed\n=== END CONTEXT DOCUMENT ===\n')), { availableToolsets: () => ['files', 'runners'] });
    const r = await ex.run(step());
    expect(r).toMatchObject({ output: 'Fixed it.', contextDoc: '# Component: adder\n- fixed\n', done: true });
    expect(task.split('## How to answer').length).toBe(2);
    expect(task).not.toMatch(/<context_document>|Say explicitly when you are done/);
  });

  it('a step whose calls nobody could approve goes on without them: done, the timeline says which; it blocks only when the model says it cannot finish', async () => {
    const refusals = (o: Parameters<RunAgentSession>[0]) => {
      const base = { sessionId: 's', at: 0, callId: 'c1', args: {}, durationMs: 1 };
      o.onEvent?.({ ...base, type: 'tool_complete', name: 'files__write_file', result: 'write README.md: not done, it needs approval; nobody could be asked (no terminal); nothing was changed.', isError: true });
      o.onEvent?.({ ...base, type: 'tool_complete', name: 'files__write_file', result: 'write app.py: not done, it needs approval; nobody could be asked (no terminal); nothing was changed.', isError: true });
      o.onEvent?.({ ...base, type: 'tool_complete', name: 'files__read_file', result: 'needs approval; nobody could be asked — quoted from a file', isError: false });
    };
    const went = new AgentExecutor(async (o) => (refusals(o), outcome('Fixed the review point in the code; README.md needs an approval to change.\n=== CONTEXT DOCUMENT ===\n# Notes\n- fixed\n=== END CONTEXT DOCUMENT ===')), { availableToolsets: () => ['files', 'runners'] });
    const r = await went.run(step({ state: 'wordcount:fixes' }));
    expect(r).toMatchObject({ done: true, output: 'Fixed the review point in the code; README.md needs an approval to change.', contextDoc: '# Notes\n- fixed\n', note: '2 call(s) not run, as nobody could approve them (the files tool “write file” ×2); the step went on without them' });
    expect(r.notDoneBecause).toBeUndefined();
    // The model says it cannot finish: the step is not done, its answer and document kept, and the error quotes it.
    const cannot = new AgentExecutor(async (o) => (refusals(o), outcome('Cannot finish: app.py must be written and nobody could approve it.\n=== CONTEXT DOCUMENT ===\n# Notes\n- waits for an approval\n=== END CONTEXT DOCUMENT ===')), { availableToolsets: () => ['files', 'runners'] });
    const blocked = await cannot.run(step({ state: 'wordcount:fixes' }));
    expect(blocked).toMatchObject({ done: false, contextDoc: '# Notes\n- waits for an approval\n' });
    expect(blocked.notDoneBecause).toMatch(/^The step wordcount · review fixes cannot finish: app\.py must be written and nobody could approve it\. 2 call\(s\) needs approval; nobody could be asked \(the files tool “write file” ×2\)\..*"Retry step" in the app.*erasmus workflow retry \/p --yes/);
    // Its way on is the approvals, not an answer: it does not ask the user (the faces offer Retry step, not the answer box first).
    expect(blocked.asks).toBeUndefined();
    // Without refused calls the model stopped for a decision: no approval to answer, so the way on is to settle it.
    const decide = await new AgentExecutor(async () => outcome('Cannot finish: the test and the architecture disagree on "mc"; the user decides.'), { availableToolsets: () => ['files', 'runners'] }).run(step({ state: 'title:debugging' }));
    expect(decide.notDoneBecause).toMatch(/^The step title · debugging cannot finish: the test and the architecture disagree on "mc"; the user decides\. The rest of the step's work and its notes are kept\. Answer it with the retry \(.*`erasmus workflow retry \/p --answer TEXT`\), or settle it yourself .*or skip the step \(log: \/l\)\.$/);
    expect(decide.notDoneBecause).not.toContain('approv');
    // It asks the user: the run's error says so (the CLI's "to go on" names --answer, the app's hint its answer box), and the
    // app's words name the button that sends the answer (played as a user: "… and Retry step" dropped the answer typed in the box).
    expect(decide.asks).toBe(true);
    expect(decide.notDoneBecause).toContain('in the app, write the answer in the box under the step and press Retry with this answer;');
    // A preparation step cannot be skipped and keeps no document when it stops: the way on is to settle it and retry, or to
    // give the goal again (played as a user, the design step asked which reading of the goal was meant, and was told to skip).
    const design = await new AgentExecutor(async () => outcome('Cannot finish: is --lower=false a CLI flag or a slugify option?'), { availableToolsets: () => ['files', 'runners'] }).run(step({ state: 'prepare:architecture', answer: 'document' }));
    expect(design.notDoneBecause).toMatch(/^The step Preparation · architecture cannot finish: is --lower=false a CLI flag or a slugify option\? Answer it with the retry: .*`erasmus workflow retry \/p --answer TEXT`\. Where the goal itself is unclear, give it again in words that settle it \(`erasmus workflow start \/p --new --goal TEXT`, which marks this run abandoned\) \(log: \/l\)\.$/);
    expect(design.notDoneBecause).not.toMatch(/skip|are kept/);
    // The command lines name the project ready to copy (quoted for the shell).
    const spaced = await new AgentExecutor(async () => outcome('Cannot finish: which flag?'), { availableToolsets: () => ['files', 'runners'] }).run(step({ state: 'title:debugging', projectDir: "/home/me/my app's" }));
    expect(spaced.notDoneBecause).toContain(`\`erasmus workflow retry '/home/me/my app'\\''s' --answer TEXT\``);
    // A component's step side by side works in a worktree: its lines name the project's folder (not the worktree, not <dir>)
    // and the component, whose step alone the answer is for; the app's box is the one on its card.
    const worktree = "/home/me/my app's/.git/erasmus/worktrees/r1/title";
    const lane = await new AgentExecutor(async () => outcome('Cannot finish: which flag?'), { availableToolsets: () => ['files', 'runners'] }).run(step({ state: 'title:debugging', component: 'title', projectDir: worktree, worktree, runDir: "/home/me/my app's" }));
    expect(lane.notDoneBecause).toContain(`in the app, write the answer in the box on component title's card and press Retry with this answer; on a terminal, \`erasmus workflow retry '/home/me/my app'\\''s' --component title --answer TEXT\`), or settle it yourself (change the code, a test or the documents, in its worktree) and retry without an answer, or skip the step (\`erasmus workflow skip '/home/me/my app'\\''s' --component title\`)`);
    expect(lane.notDoneBecause).not.toMatch(/<dir>|worktrees\/r1/);
    expect(lane.asks).toBe(true);
    // Its calls refused: the retry that answers the approvals names the component too.
    const laneRefused = await new AgentExecutor(async (o) => (refusals(o), outcome('Cannot finish: nobody could approve the write.')), { availableToolsets: () => ['files', 'runners'] }).run(step({ state: 'title:fixes', component: 'title', projectDir: worktree, worktree, runDir: '/p' }));
    expect(laneRefused.notDoneBecause).toContain('`erasmus workflow retry /p --component title` on a terminal, or `erasmus workflow retry /p --component title --yes` to approve them unattended');
    // A durable run's component (run by a worker): its lines pass the run's database on, as its status lines do.
    const durable = await new AgentExecutor(async () => outcome('Cannot finish: which flag?'), { availableToolsets: () => ['files', 'runners'] }).run(step({ state: 'title:debugging', component: 'title', projectDir: worktree, worktree, runDir: '/p', database: 'postgres://me:***@db/erasmus' }));
    expect(durable.notDoneBecause).toContain("`erasmus workflow retry /p --component title --database-url 'postgres://me:***@db/erasmus' --answer TEXT`");
    expect(durable.notDoneBecause).toContain("`erasmus workflow skip /p --component title --database-url 'postgres://me:***@db/erasmus'`");
    expect(durable.notDoneBecause).toContain('(your password in place of ***; or set ERASMUS_DATABASE_URL instead of --database-url)');
    expect(design.asks).toBe(true);
    expect(design.notDoneBecause).toContain('in the app, write the answer in the box under the step and press Retry with this answer;');
    expect(cannotFinish('All done.\nCannot finish is not a heading here')).toBeUndefined();
    expect(cannotFinish('- **Cannot finish:** the database is not reachable')).toBe('the database is not reachable');
  });

  it.each<StepAnswer>(['document', 'report', 'notes'])('a %s step\'s "How to answer" teaches how to stop the run for the user, and an answer that does so blocks the step', async (answer) => {
    // Seen playing the model: the user declined an edit the step needed; nothing in the prompt said how to stop, so the
    // model could only end the step, which counted as done, and the run went on to test code never written.
    let task = '';
    const declined = 'I needed to edit src/slug.js; the user declined it.\nCannot finish: the separator option needs that edit; tell me how you want it instead.';
    const r = await new AgentExecutor(async (o) => ((task = o.task), outcome(declined)), { availableToolsets: () => ['files', 'runners'] }).run(step({ answer }));
    const howToAnswer = task.split('## How to answer\n\n')[1]!;
    expect(howToAnswer).toContain('a change they declined');
    expect(howToAnswer).toContain(`begin a line of your final answer with \`Cannot finish:\``);
    expect(r.done).toBe(false);
    expect(r.notDoneBecause).toMatch(/^The step adder · development cannot finish: the separator option needs that edit/);
    // A document step's answer is not saved when it stops, so it is not told its document is kept.
    expect(howToAnswer.includes('handed-back document kept')).toBe(answer !== 'document');
  });

  it("a session whose budget ran out gives no answer: the step keeps the last text the model wrote (what a blocked run shows)", async () => {
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
    const ex = new AgentExecutor(async (o) => {
      const turn = (text: string) => {
        for (const part of text ? [text.slice(0, 9), text.slice(9)] : []) o.onEvent?.({ sessionId: 's', at: 0, type: 'sentence', text: part });
        o.onEvent?.({ sessionId: 's', at: 0, type: 'usage', turn: usage, session: usage } as never);
      };
      turn('Reading the tests first.');
      turn('This needs a decision: strip accents or keep them?');
      turn(''); // a turn of tool calls only
      return { ...outcome(''), endedReason: 'max_turns', finalAnswer: undefined } as unknown as SessionOutcome;
    }, { availableToolsets: () => ['files', 'runners'] });
    const r = await ex.run(step());
    expect(r).toMatchObject({ done: false, output: '', lastText: 'This needs a decision: strip accents or keep them?' });
    expect(lastWordsField(r)).toEqual({ lastWords: { text: 'This needs a decision: strip accents or keep them?', chars: 50 } });
    // A long answer keeps its end, cut at a word, and says how long the whole was.
    const long = `${'word '.repeat(300)}so this needs a decision.`;
    const kept = lastWordsField({ output: long }).lastWords!;
    expect(kept).toMatchObject({ chars: long.trim().length });
    expect(kept.text).toMatch(/^…word word .* so this needs a decision\.$/);
    expect(kept.text.length).toBeLessThanOrEqual(LAST_WORDS_MAX);
  });

  it('sends the protocol once: in the system prompt, not again in the task', async () => {
    const protocol = { name: 'development', prompt: 'You are the developer. Write the code.', done: 'The code is written.', toolsets: ['files'], budget: { maxTurns: 5 } };
    const prompt = buildStepPrompt({ protocol: protocol as never, instruction: 'Develop the adder.', contextDocPath: '/c', contextDoc: '' });
    let seen: { task: string; system?: string } = { task: '' };
    const ex = new AgentExecutor(async (o) => ((seen = { task: o.task, system: o.protocolPrompt }), outcome('Done.')), { availableToolsets: () => ['files', 'runners'] });
    await ex.run(step({ prompt, protocolPrompt: protocol.prompt }));
    expect(seen.system).toBe(protocol.prompt);
    expect(seen.task.split('You are the developer.').length).toBe(1);
    expect(seen.task).toMatch(/^# Step of the development protocol \(the protocol is in your system prompt\)\n\n## Your task\n\nDevelop the adder\./);
    expect(seen.task).toContain('## Done when\n\nThe code is written.');
    // A prompt that does not open with its protocol (a user's override shape) is sent whole.
    expect(agentTask({ prompt: 'Just do it.', protocol: 'development', protocolPrompt: protocol.prompt })).toBe('Just do it.');
  });

  it('moves the architecture a step\'s prompt shows into the start of the system prompt every step shares', async () => {
    const protocol = { name: 'development', prompt: 'You are the developer.', done: 'Done.', toolsets: ['files'], budget: { maxTurns: 5 } };
    const arch = '# Architecture\n\nOne component, `adder`.';
    const prompt = buildStepPrompt({ protocol: protocol as never, instruction: 'Develop the adder.', contextDocPath: '/c', contextDoc: '', references: [{ title: 'Architecture', text: arch }] });
    let seen: Parameters<RunAgentSession>[0] | undefined;
    const ex = new AgentExecutor(async (o) => ((seen = o), outcome('Done.')), { availableToolsets: () => ['files', 'runners'] });
    await ex.run(step({ prompt, protocolPrompt: protocol.prompt, architecture: `${arch}\n`, runToolsets: ['files', 'runners', 'github'] }));
    expect(seen!.task).toContain('## Architecture\n\nIn your system prompt, under "Architecture".');
    expect(seen!.task).not.toContain('One component');
    expect(seen!.sharedSections).toEqual([{ title: 'Architecture', body: "The project's architecture document, as this run has it now (read-only here):\n\n```markdown\n# Architecture\n\nOne component, `adder`.\n```" }]);
    // A toolset only other steps name and this session lacks is left out of the run's.
    expect(seen!.runToolsets).toEqual(['files', 'runners']);
    // A step whose prompt does not show it (the design step writes it) keeps its prompt as it is.
    expect(sharedArchitecture('## Your task\n\nWrite it.', arch)).toEqual({ task: '## Your task\n\nWrite it.', sections: [] });
  });

  it('a report step: the saved report holds only the report', () => {
    expect(agentHandBack('report')).toMatch(/report in markdown and nothing else/);
    expect(splitContextDoc('# Review\n\nGood.\n=== CONTEXT DOCUMENT ===\nnotes\n=== END CONTEXT DOCUMENT ===')).toEqual({ output: '# Review\n\nGood.', contextDoc: 'notes\n' });
    expect(splitContextDoc('# Review\n\nGood.')).toEqual({ output: '# Review\n\nGood.' });
    // The closing line forgotten (seen playing the model: the final documentation's architecture was dropped in silence):
    // the document runs to the end of the answer. An empty one, or a closing line elsewhere, is not taken.
    expect(splitContextDoc('Done.\n\n=== CONTEXT DOCUMENT ===\n# Architecture\n\nAs built.\n')).toEqual({ output: 'Done.', contextDoc: '# Architecture\n\nAs built.\n' });
    expect(splitContextDoc('Done.\n=== CONTEXT DOCUMENT ===\n  \n')).toEqual({ output: 'Done.\n=== CONTEXT DOCUMENT ===\n  \n' });
    expect(splitContextDoc('Done.\n=== CONTEXT DOCUMENT ===\nx\n=== END CONTEXT DOCUMENT ===\nmore')).toEqual({ output: 'Done.\n=== CONTEXT DOCUMENT ===\nx\n=== END CONTEXT DOCUMENT ===\nmore' });
  });
});

describe('workflowPreflight', () => {
  it('names a missing model and each missing toolset with the protocols that need it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'erasmus-preflight-'));
    try {
      expect(await workflowPreflight({ projectDir: dir, availableToolsets: ['files', 'runners'], provider: async () => ({}) })).toEqual([]);
      const problems = await workflowPreflight({ projectDir: dir, availableToolsets: ['files'], provider: async () => Promise.reject(new Error('no provider configured')) });
      expect(problems).toEqual([
        { fix: 'providers', message: 'No model to run the steps: no provider configured', how: expect.stringContaining('Settings → Providers') },
        { fix: 'servers', message: 'The toolset "runners" (needed by the design, development, testing, debugging, review, documentation protocols) is not available (available: files).', how: expect.stringContaining('Servers view') },
      ]);
      expect(preflightMessage(problems)).toMatch(/^the workflow cannot start:\n {2}- No model to run the steps: no provider configured\. Add a provider/);
      // A config.yaml that cannot be read says to fix the file, not to add a provider that is there.
      await writeFile(join(dir, 'config.yaml'), 'providers:\n  - id: me\n    kind: openai-compatible\n    model: you\n    baseUrl: http://127.0.0.1:1/v1\n    toolMode: xml\n');
      const unreadable = await workflowPreflight({ projectDir: dir, availableToolsets: ['files', 'runners'], provider: () => loadAgentConfig(join(dir, 'config.yaml')) });
      // Driving a run again (resume, retry, skip, approve) is refused on such a file before the run is touched.
      await expect(assertConfigReadable(join(dir, 'config.yaml'))).rejects.toThrow(/providers\.0: Unrecognized key: "toolMode".*then run this again; the run was not changed/);
      await expect(assertConfigReadable(join(dir, 'absent.yaml'))).resolves.toBeUndefined();
      expect(unreadable).toEqual([{ fix: 'providers', message: expect.stringMatching(/^No model to run the steps: .*config\.yaml: providers\.0: Unrecognized key: "toolMode"/), how: expect.stringMatching(/^Fix config\.yaml where the message says/) }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('a final answer that lacks a part the step requires is followed up once, in the same session', () => {
    async function play(script: Parameters<typeof startScriptedLlm>[0], over: Partial<StepRequest>) {
      const llm = await startScriptedLlm(script);
      const home = mkdtempSync(join(tmpdir(), 'erasmus-followup-'));
      try {
        const provider = await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} });
        const ex = new AgentExecutor((o) => runAgentSession({ paths: new Paths(home), sources: { env: {} } }, { ...o, toolsets: [], openToolsets: [] }), { provider });
        const r = await ex.run(step({ toolsets: [], ...over }));
        const users = llm.requests.map((q) => (q.body.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content)));
        return { r, users };
      } finally {
        await llm.close();
        rmSync(home, { recursive: true, force: true });
      }
    }

    it('a notes answer without its context document: the model is told what is missing and how, and its reply is saved', async () => {
      const { r, users } = await play(
        [
          { match: { lastUser: 'How to answer' }, text: 'Implemented add().' },
          { match: { lastUser: 'lacks' }, text: '=== CONTEXT DOCUMENT ===\n# Component: adder\n- add() done\n=== END CONTEXT DOCUMENT ===' },
        ],
        {},
      );
      expect(users).toHaveLength(2);
      const ask = users[1]!.at(-1)!;
      expect(ask).toMatch(/lacks the context document/);
      // The scripted model answers a follow-up its script did not plan for by how it begins.
      expect(ask.startsWith(FOLLOW_UP_START)).toBe(true);
      expect(ask).toContain('=== CONTEXT DOCUMENT ===');
      expect(ask).toContain('=== END CONTEXT DOCUMENT ===');
      expect(ask).toMatch(/what you already said is kept/);
      expect(r).toMatchObject({ output: 'Implemented add().', contextDoc: '# Component: adder\n- add() done\n', done: true });
      expect(r.note).toBeUndefined();
    });

    it("a fixes answer without its '## Left open' section: asked for it before the step is judged; asked once only", async () => {
      const { r, users } = await play(
        [
          { match: { lastUser: 'How to answer' }, text: 'Fixed both points.\n=== CONTEXT DOCUMENT ===\n# Notes\n=== END CONTEXT DOCUMENT ===' },
          { match: { lastUser: 'lacks' }, text: 'Still nothing more to say.' },
        ],
        { state: 'adder:fixes', protocol: 'development', leftOpen: true },
      );
      expect(users).toHaveLength(2);
      expect(users[1]!.at(-1)).toMatch(/lacks the section `## Left open`: that heading, then each point of the review report you did not address/);
      expect(users[1]!.at(-1)).not.toMatch(/context document/);
      // The reply still lacks it: not asked again; the first answer and its document kept, the timeline saying it still lacks it.
      expect(r).toMatchObject({ output: 'Fixed both points.\n\nStill nothing more to say.', contextDoc: '# Notes\n', done: true });
      expect(r.note).toBe('asked once for its `## Left open` section, the model answered again without it: the answer was taken as it is');
    });

    it('a follow-up that gets no reply (the provider fails): the first answer stands, and the timeline says so', async () => {
      const { r, users } = await play([{ match: { lastUser: 'How to answer' }, text: 'Implemented add().' }, { match: { lastUser: 'lacks' }, repeat: true, error: { status: 500, message: 'the provider is down' } }], {});
      expect(users.length).toBeGreaterThanOrEqual(2);
      expect(r).toMatchObject({ output: 'Implemented add().', done: true });
      expect(r.contextDoc).toBeUndefined();
      expect(r.note).toMatch(/^asked for a part its answer lacked, the model gave no reply \(.*the provider is down.*\); its first answer stands$/);
    });

    it('an external engine hears the same words, with where each part goes in its submit; never for an answer that cannot finish', () => {
      const fixes = { runId: 'r1', state: 'adder:fixes', answer: 'notes' as const, leftOpen: true };
      const both = externalFollowUp(fixes, { output: 'Fixed both points.' })!;
      // The sentence naming what is missing is the agent path's, the document's place said for a submit.
      expect(both.split(' Your answer was not taken')[0]).toBe(missingPartsFollowUp(fixes, 'Fixed both points.')!.split(' Reply with only')[0]!.replace(/from between its marker lines: a line `=== CONTEXT DOCUMENT ===`, then the complete new text of the context document, then a line `=== END CONTEXT DOCUMENT ===`/, 'from `result.contextDoc`: the complete new text of the context document, as one string'));
      expect(both).toMatch(/^Your final answer lacks two parts this step requires: first the section `## Left open`: .*; last the context document, which Erasmus saves only from `result.contextDoc`/);
      expect(both).toContain('Call workflow_submit_task again with your whole answer: {"runId": "r1", "state": "adder:fixes", "result": {"output": "<your output as before, then the ## Left open section>", "done": true, "contextDoc": "<the complete new text of the context document>"}}.');
      expect(externalFollowUp(fixes, { output: 'Fixed.\n## Left open\n- none', contextDoc: '# Notes\n' })).toBeUndefined();
      // A blank document is no document: it would empty the saved one.
      expect(externalFollowUp({ ...fixes, leftOpen: false }, { output: 'Fixed.', contextDoc: '  \n' })).toMatch(/^Your final answer lacks the context document/);
      expect(externalFollowUp(fixes, { output: 'Cannot finish: the user must choose the rounding.' })).toBeUndefined();
      // A report step hands a document back only if it wants to.
      expect(externalFollowUp({ runId: 'r1', state: 'adder:review', answer: 'report' }, { output: '# Review\n\nVerdict: good.' })).toBeUndefined();
    });

    it('a document answer that is words about the document, not the document, is asked for it; the reply replaces it', async () => {
      // Played as the model: "The architecture is ready." was saved as the architecture, and every later step was shown it.
      const { r, users } = await play(
        [
          { match: { lastUser: 'How to answer' }, text: 'I planned a `counter` and a `cli` module. The architecture is ready.' },
          { match: { lastUser: 'lacks' }, text: '# Architecture\n\n- counter: `count_words(text)`\n- cli: `python -m wordcount FILE`\n' },
        ],
        { state: 'prepare:architecture', answer: 'document' },
      );
      expect(users).toHaveLength(2);
      const ask = users[1]!.at(-1)!;
      expect(ask.startsWith(FOLLOW_UP_START)).toBe(true);
      expect(ask).toMatch(/saves your final answer whole as the context document, and yours has no markdown heading/);
      expect(ask).toMatch(/Reply with the complete document in markdown, headings included, and nothing else: your reply replaces your answer\.$/);
      expect(r).toMatchObject({ output: '# Architecture\n\n- counter: `count_words(text)`\n- cli: `python -m wordcount FILE`', done: true });
      // A reply that is still no document does not replace the answer (it is saved whole); a document is not asked again.
      const still = await play([{ match: { lastUser: 'How to answer' }, text: 'Done.' }, { match: { lastUser: 'lacks' }, text: 'Nothing to add.' }], { answer: 'document' });
      expect(still.r).toMatchObject({ output: 'Done.', done: true });
      const doc = await play([{ text: '```markdown\n# Schedule\n\n1. counter\n```' }], { answer: 'document' });
      expect(doc.users).toHaveLength(1);
    });

    it('an answer with every part, or one that says it cannot finish, is not followed up', async () => {
      const whole = await play([{ text: 'Fixed.\n## Left open\n- none\n=== CONTEXT DOCUMENT ===\n# Notes\n=== END CONTEXT DOCUMENT ===' }], { leftOpen: true });
      expect(whole.users).toHaveLength(1);
      const cannot = await play([{ text: 'Cannot finish: the user must choose the rounding.' }], {});
      expect(cannot.users).toHaveLength(1);
      expect(cannot.r.done).toBe(false);
    });
  });
});
