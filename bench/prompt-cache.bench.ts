// Prompt-prefix stability and what Anthropic prompt caching saves, for a scripted 10-turn session in
// each tool mode on the default path: a fresh ERASMUS_HOME with one provider, a fresh `git init` project,
// the built-in toolsets (files, runners) — the real core, prompt assembly, loop, AI SDK and Anthropic
// provider — against the Anthropic Messages stand-in, which records each request as the API receives it.
// Two sessions per mode: a chat, where the model opens the files toolset itself (turn 1), and a workflow
// step, which opens its protocol's toolsets (files, runners) before the first request.
// Figures: the median share of each request that repeats the previous request's start (target ≥ 95 %);
// its ceiling, what a prefix that never moves would give (the previous request's length over this one's:
// each turn appends the model's call and its result, so a short request cannot repeat more); how many
// requests repeat the previous one whole; and the session's input cost at Claude Sonnet 4.5 prices with
// the cache breakpoints Erasmus sets, against the same requests without caching (the baseline, computed
// in the same run).
// Anthropic caches in the order tools → system → messages, so that is the order compared here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWireServer, type WireTurn } from '../tests/fixtures/provider-wire/server';
import { Core } from '../electron/main/api/core';
import { attachBuiltinServers } from '../electron/servers/builtin';

const PRICE = { input: 3, cacheRead: 0.3, cacheWrite: 3.75 }; // USD per million tokens
const TURNS = 10;
const note = (n: number) => `# Note ${n}\n\n${'A line of notes about the project and its files. '.repeat(10)}\n`;

type Kind = 'chat' | 'step';

function script(mode: 'native' | 'xml', kind: Kind): WireTurn[] {
  const turns: WireTurn[] = [];
  for (let i = 1; i < TURNS; i++) {
    const n = kind === 'chat' ? i - 1 : i;
    const text = kind === 'chat' && i === 1 ? 'Opening the files toolset.' : `Reading note ${n} next.`;
    const call = kind === 'chat' && i === 1 ? { name: 'open_toolset', args: { name: 'files' } } : { name: 'read_file', args: { path: `note${n}.md` } };
    if (mode === 'native') turns.push({ text, toolCalls: [call] });
    else turns.push({ text: `${text}\n<${call.name}>\n${Object.entries(call.args).map(([k, v]) => `<${k}>${v}</${k}>`).join('\n')}\n</${call.name}>` });
  }
  turns.push({ text: 'All notes read; they describe the project.' });
  return turns;
}

type Json = Record<string, unknown>;
const strip = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v as Json).filter(([k]) => k !== 'cache_control').map(([k, x]) => [k, strip(x)])) : v;

/** A request in Anthropic's cache order, and the offsets where its cache breakpoints end. */
function canonical(body: Json): { text: string; marks: number[] } {
  let text = '';
  const marks: number[] = [];
  const add = (part: unknown) => {
    text += JSON.stringify(strip(part));
    if (JSON.stringify(part).includes('cache_control')) marks.push(text.length);
  };
  for (const t of (body.tools as unknown[] | undefined) ?? []) add(t);
  for (const s of (body.system as unknown[] | undefined) ?? []) add(s);
  for (const m of body.messages as unknown[]) add(m);
  return { text, marks };
}

const common = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const tokens = (chars: number) => chars / 4;

async function run(mode: 'native' | 'xml', kind: Kind) {
  const home = mkdtempSync(join(tmpdir(), 'erasmus-cache-bench-home-'));
  const project = mkdtempSync(join(tmpdir(), 'erasmus-cache-bench-project-'));
  execFileSync('git', ['init', '-q'], { cwd: project });
  for (let i = 1; i < TURNS; i++) writeFileSync(join(project, `note${i}.md`), note(i));
  const server = await startWireServer('anthropic', script(mode, kind));
  writeFileSync(join(home, 'config.yaml'), `providers:\n  - id: claude\n    kind: anthropic\n    model: claude-sonnet-4-5\n    baseUrl: ${server.url}/v1\n    apiKey: \${env:BENCH_KEY}\n`);
  const core = new Core({ home, face: 'cli', env: { ...process.env, BENCH_KEY: 'k' } });
  try {
    await core.hub.start({ projectDir: project, watch: false });
    await attachBuiltinServers(core, { root: project });
    const outcome = await core.agent.run({ task: 'Read the notes in this project and say what they describe.', project, provider: {}, toolMode: mode, autoApprove: true, ...(kind === 'step' ? { openToolsets: ['files', 'runners'] } : {}) });
    if (outcome.endedReason !== 'complete' || server.requests.length !== TURNS) throw new Error(`${mode}: session ended ${outcome.endedReason} after ${server.requests.length} requests: ${outcome.error}`);
    const reqs = server.requests.map((r) => canonical(r.body));
    const shares: number[] = [];
    const kept: number[] = [];
    const ceiling: number[] = [];
    let cached = 0;
    let uncached = 0;
    for (const [i, r] of reqs.entries()) {
      uncached += (tokens(r.text.length) * PRICE.input) / 1e6;
      const prev = reqs[i - 1];
      const same = prev ? common(prev.text, r.text) : 0;
      if (prev) shares.push(same / r.text.length);
      if (prev) kept.push(same / prev.text.length);
      if (prev) ceiling.push(Math.min(1, prev.text.length / r.text.length));
      // The cache serves the longest of the previous request's breakpoints that is still a prefix; the rest is written.
      const read = prev ? Math.max(0, ...prev.marks.filter((m) => m <= same)) : 0;
      cached += (tokens(read) * PRICE.cacheRead + tokens(r.text.length - read) * PRICE.cacheWrite) / 1e6;
    }
    const minShare = Math.min(...shares);
    const size = (n: number) => `${(n / 1000).toFixed(1)}k`;
    console.log(
      `${kind} ${mode.padEnd(6)}: requests ${size(reqs[0]!.text.length)}–${size(reqs.at(-1)!.text.length)} characters; median prefix repeated ${(median(shares) * 100).toFixed(1)} % (min ${(minShare * 100).toFixed(1)} %; ceiling ${(median(ceiling) * 100).toFixed(1)} %; target ≥ 95 %: ${median(shares) >= 0.95 ? 'met' : 'NOT met'}); previous request repeated whole in ${kept.filter((k) => k === 1).length} of ${kept.length}; ` +
        `input cost with caching $${cached.toFixed(4)} vs $${uncached.toFixed(4)} without (${(cached / uncached).toFixed(2)}× the baseline)`,
    );
  } finally {
    await core.dispose();
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

for (const kind of ['chat', 'step'] as const) for (const mode of ['native', 'xml'] as const) await run(mode, kind);
