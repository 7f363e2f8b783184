// One prompt prefix per run (issue #24): how much of each workflow step's first request repeats the start
// of the previous step's first request, so a provider's prompt cache can serve it across steps.
// The default path a new user has (tests/e2e/workflow-default.ts): a fresh ERASMUS_HOME with one provider,
// a fresh `git init` folder, the built-in toolsets; `erasmus workflow start --yes` with the scripted model
// taking a one-component project from its goal to COMPLETED, in each tool mode.
// A step's first request is the one whose messages are the system prompt and the task alone. Compared in
// the order a cache reads a request: the tools array, then the messages (system first).
// Figure: common prefix characters / request characters, per step after the first; the median is the
// figure (goal ≥ 70 %), printed beside BEFORE, the same figure measured before the prompt was ordered
// for it (commit c514340), in the same words. Needs a build (`npm run build`).
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedLlm } from '../tests/fixtures/scripted-llm/index';
import { defaultPathScript, defaultWorld } from '../tests/e2e/workflow-default';

const CLI = join(import.meta.dirname, '..', 'bin', 'erasmus.js');
if (!existsSync(join(import.meta.dirname, '..', 'out', 'main', 'cli.cjs'))) {
  console.error('build first: npm run build');
  process.exit(1);
}

/** Median share measured before the change, per tool mode (see the header). */
const BEFORE: Record<'native' | 'xml', number> = { native: 0.16, xml: 0.167 };
const GOAL = 0.7;

type Json = Record<string, unknown>;

const common = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The request as a cache reads it: tools, then messages. */
const canonical = (body: Json) => [...((body.tools as unknown[] | undefined) ?? []), ...(body.messages as unknown[])].map((x) => JSON.stringify(x)).join('');

async function run(mode: 'native' | 'xml') {
  const llm = await startScriptedLlm(defaultPathScript(mode));
  const world = await defaultWorld(llm.baseUrl, { nativeTools: mode === 'native' });
  try {
    const code = await new Promise<number | null>((res) => {
      const c = spawn(process.execPath, [CLI, 'workflow', 'start', world.project, '--goal', 'a function that adds two numbers, with tests', '--yes'], { env: { ...process.env, ERASMUS_HOME: world.home }, stdio: ['ignore', 'ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore'] });
      c.on('close', res);
    });
    if (code !== 0 || llm.remaining() !== 0) throw new Error(`${mode}: the run did not complete (exit ${code}, ${llm.remaining()} scripted turns unused)`);
    const first = llm.requests.filter((r) => (r.body.messages as unknown[]).length === 2);
    // BENCH_DUMP=dir writes each step's first request (system prompt, task) there, to read them as the model does.
    if (process.env.BENCH_DUMP) first.forEach((r, i) => writeFileSync(join(process.env.BENCH_DUMP!, `${mode}-${String(i + 1).padStart(2, '0')}.txt`), (r.body.messages as Array<{ content: unknown }>).map((m) => String(m.content)).join('\n\n======== task ========\n\n')));
    const firsts = first.map((r) => canonical(r.body as Json));
    const shares = firsts.slice(1).map((text, i) => common(firsts[i]!, text) / text.length);
    const size = (n: number) => `${(n / 1000).toFixed(1)}k`;
    const m = median(shares);
    console.log(
      `${mode.padEnd(6)}: ${firsts.length} steps, first requests ${size(Math.min(...firsts.map((f) => f.length)))}–${size(Math.max(...firsts.map((f) => f.length)))} characters; ` +
        `median share repeating the previous step's start ${pct(m)} (min ${pct(Math.min(...shares))}; before: ${Number.isNaN(BEFORE[mode]) ? 'not measured' : pct(BEFORE[mode])}; goal ≥ ${pct(GOAL)}: ${m >= GOAL ? 'met' : 'NOT met'})`,
    );
    console.log(`        per step: ${shares.map((s) => (s * 100).toFixed(0)).join(' ')}`);
    return m >= GOAL;
  } finally {
    await llm.close();
    rmSync(world.root, { recursive: true, force: true });
  }
}

let met = true;
for (const mode of ['native', 'xml'] as const) met = (await run(mode)) && met;
if (!met) process.exitCode = 1;
