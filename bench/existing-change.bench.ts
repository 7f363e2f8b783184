// The clsx-sized change of issue #28 (tests/fixtures/existing-change): `erasmus workflow start` on a copy of
// a small library, a scripted model adding Set support, counted in requests and characters sent to the model.
// Baseline, measured in the same run: the same change made by rewriting the three files whole (write_file).
// Targets (issue #28): ≤ 20 requests and ≤ 250,000 characters. Needs a build (`npm run build`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GOAL, git, library, script } from '../tests/fixtures/existing-change/index';
import { startScriptedLlm } from '../tests/fixtures/scripted-llm/index';

const CLI = join(import.meta.dirname, '..', 'bin', 'erasmus.js');
if (!existsSync(join(import.meta.dirname, '..', 'out', 'main', 'cli.cjs'))) {
  console.error('build first: npm run build');
  process.exit(1);
}

async function change(rewrite: boolean): Promise<{ requests: number; chars: number; ok: boolean }> {
  const root = mkdtempSync(join(tmpdir(), 'erasmus-change-bench-'));
  const llm = await startScriptedLlm(script({ rewrite }));
  try {
    const { project, home } = library(root);
    writeFileSync(join(home, 'config.yaml'), `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    nativeTools: true\n`);
    // Asynchronous: the scripted model answers from this process while the CLI runs.
    const r = await new Promise<number | null>((res) => {
      const c = spawn(process.execPath, [CLI, 'workflow', 'start', project, '--goal', GOAL, '--yes'], { env: { ...process.env, ERASMUS_HOME: home }, stdio: 'ignore' });
      c.on('close', res);
    });
    const ok = r === 0 && git(project, 'log', '--format=%s', '-1') === 'feat: support Set values in cx';
    return { requests: llm.requests.length, chars: llm.requests.reduce((n, q) => n + JSON.stringify(q.body).length, 0), ok };
  } finally {
    await llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const edit = await change(false);
const rewrite = await change(true);
console.log(`small change to an existing library (${edit.ok ? 'complete, committed' : 'NOT complete'}):`);
console.log(`  requests: ${edit.requests} (target ≤ 20); characters sent: ${edit.chars} (target ≤ 250000)`);
console.log(`  baseline, the same change by whole-file rewrites (${rewrite.ok ? 'complete' : 'NOT complete'}): ${rewrite.requests} requests, ${rewrite.chars} characters; ratio ${(edit.chars / rewrite.chars).toFixed(2)}`);
if (!edit.ok || edit.requests > 20 || edit.chars > 250_000) process.exit(1);
