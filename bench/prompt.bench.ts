// What a model reads on the default path (a fresh home, a `git init` Python project, only the built-in
// toolsets), in characters: the system prompt, each built-in toolset's `open_toolset` result, and the
// fifth request of the scripted five-turn session (tests/fixtures/five-turns), in xml and native mode.
// Targets (issue #11): system prompt ≤ 3,000; `files` open ≤ 2,500; `runners` open in a Python project
// ≤ 4,000. Baseline, measured in the same run: the same session with every toolchain listed (the
// project's `.erasmus/settings.json` asks for all of them) — the ratio shows what toolchain selection saves.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '../electron/contract/index';
import { Core } from '../electron/main/api/core';
import { approvalPath } from '../electron/main/agent/approval-path';
import { attachBuiltinServers } from '../electron/servers/builtin';
import { nativeTurns, pythonProject, TARGETS, TASK, xmlTurns } from '../tests/fixtures/five-turns/index';
import { startScriptedLlm } from '../tests/fixtures/scripted-llm/index';

interface Figures {
  system: number;
  open: Record<string, number>;
  fifth: number;
  requests: number;
  ok: boolean;
}

async function session(mode: 'xml' | 'native', allToolchains = false): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-prompt-bench-'));
  const work = join(dir, 'work');
  mkdirSync(join(work, '.erasmus'), { recursive: true });
  pythonProject(work);
  if (allToolchains) writeFileSync(join(work, '.erasmus', 'settings.json'), JSON.stringify({ runners: { toolchains: ['pnpm', 'cargo', 'uv', 'docker'] } }));
  const llm = await startScriptedLlm(mode === 'xml' ? xmlTurns() : nativeTurns());
  const core = new Core({ face: 'cli', version: 'bench', home: join(dir, 'home') });
  try {
    await core.hub.start({ projectDir: work, watch: false });
    const path = approvalPath({ nobodyBecause: 'benchmark' });
    core.hub.setElicitationHandler(path.elicitation);
    await attachBuiltinServers(core, { root: work });
    const events: AgentEvent[] = [];
    const outcome = await core.agent.run({ task: TASK, project: work, provider: { baseUrl: llm.baseUrl, model: 'scripted' }, toolMode: mode, onEvent: (e) => events.push(e) }, { approvals: path.approvals });
    const agent = llm.requests.filter((r) => !JSON.stringify(r.body.messages?.[0] ?? '').includes('You review one script'));
    const open: Record<string, number> = {};
    for (const e of events) if (e.type === 'tool_complete' && e.name === 'open_toolset') open[String((e.args as { name?: string }).name)] = e.result.length;
    return { system: String(agent[0]?.body.messages?.[0]?.content ?? '').length, open, fifth: agent[4] ? JSON.stringify(agent[4].body).length : -1, requests: agent.length, ok: outcome.endedReason === 'complete' };
  } finally {
    await core.dispose();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (n: number, target: number) => `${n} chars (${((n / target) * 100).toFixed(0)}% of the ${target} target)`;
for (const mode of ['xml', 'native'] as const) {
  const f = await session(mode);
  const all = await session(mode, true);
  console.log(`${mode} mode (${f.requests} requests, ${f.ok ? 'complete' : 'NOT complete'}):`);
  console.log(`  system prompt:               ${pct(f.system, TARGETS.systemPrompt)}`);
  console.log(`  files open result:           ${pct(f.open.files ?? -1, TARGETS.filesOpen)}`);
  console.log(`  runners open result (Python): ${pct(f.open.runners ?? -1, TARGETS.runnersOpenPython)}; every toolchain offered (baseline): ${all.open.runners ?? -1} chars, ratio ${((f.open.runners ?? 0) / (all.open.runners ?? 1)).toFixed(2)}`);
  console.log(`  fifth request (whole body):  ${f.fifth} chars; every toolchain offered (baseline): ${all.fifth} chars, ratio ${(f.fifth / all.fifth).toFixed(2)}`);
}
