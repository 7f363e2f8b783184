// Test scaffolding shared by the workflow's git tests: a small repository with a Conventional Commits history,
// and a scripted model (the external engine's API) whose development steps write src/greet.js.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import type { WorkflowStep, WorkflowStepResult, WorkflowTask } from '../../contract/index';
import type { WorkflowEngine } from './engine';

/**
 * A fresh folder per test (`root()`) and the engines the test made (`track`), disposed and removed after each test.
 * Call once at the top of a test file.
 */
export function useEngineWorld(prefix: string): { root(): string; track(e: WorkflowEngine): WorkflowEngine } {
  let dir: string | undefined;
  const engines: WorkflowEngine[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return {
    root: () => (dir ??= mkdtempSync(join(tmpdir(), prefix))),
    track: (e) => (engines.push(e), e),
  };
}

export const TASKS = '# Task list\n\n## Component: core — the core\nTest: true\n- [ ] C1: Add the greeting\n';

/**
 * A step's answer as a good model submits it: `output` (a fixes step's ending with its `## Left open` section) and, for a
 * notes step, the complete new text of its context document: the document as it stands with a line on what the step did.
 */
export function goodAnswer(step: WorkflowStep, output: string, done = true): WorkflowStepResult {
  // A document is markdown with headings (one without is words about it, sent back once): as a good model writes it.
  if (step.answer === 'document') return { output: /^#{1,6}\s/m.test(output) ? output : `# ${step.state}\n\n${output}`, done };
  if (step.answer !== 'notes') return { output, done };
  const said = step.leftOpen && !/^#{1,3}\s*Left open\b/im.test(output) ? `${output}\n\n## Left open\n- none\n` : output;
  let doc = `# ${step.component ?? step.state}\n`;
  try {
    // Without the stamp Erasmus keeps itself (drift.ts keepStamp): a model writes the document, not the stamp.
    doc = readFileSync(step.contextDocPath, 'utf8').replace(/^<!-- erasmus: .* -->\n?/gm, '');
  } catch {}
  return { output: said, done, contextDoc: `${doc.trimEnd()}\n\n- ${step.state}: ${output.split('\n')[0]}\n` };
}

/** git as a user with an identity of their own. */
export const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=me@example.com', '-c', 'user.name=Me', ...args], { cwd: dir, encoding: 'utf8' }).trim();

/** `root/lib`: a repository on main with history in Conventional Commits and a file of the user's (notes.md). */
export function repositoryIn(root: string): string {
  const dir = join(root, 'lib');
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(dir, 'notes.md'), 'mine\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'feat: first version');
  writeFileSync(join(dir, 'index.js'), 'module.exports = 2;\n');
  git(dir, 'commit', '-qam', 'fix(core): the number');
  return dir;
}

/** The model: each development step writes `file` (src/greet.js); the others change nothing in the project. */
async function answer(e: WorkflowEngine, runId: string, task: WorkflowTask, steps: string[], file = 'src/greet.js'): Promise<void> {
  if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`expected a step, got ${task.status}`);
  const { step } = task;
  steps.push(step.state);
  const out = step.state === 'prepare:task_list' ? TASKS : step.state.endsWith(':review') ? 'Verdict: no changes needed' : `${step.state} output`;
  if (step.state === 'core:development' || step.state === 'core:redebugging') {
    const path = join(step.projectDir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `exports.greet = (n) => 'hi ' + n; // ${step.state}\n`);
  }
  await e.submitTask(runId, goodAnswer(step, out));
}

/** Drives a run to completion, approving its plan; the states the model was asked for, in order. Development writes `file`. */
export async function driveToCompletion(e: WorkflowEngine, runId: string, file?: string): Promise<string[]> {
  const steps: string[] = [];
  for (let task = await e.getTask(runId); task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
    if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
    else if (task.status === 'BLOCKED') throw new Error(`blocked: ${task.error?.message}`);
    else await answer(e, runId, task, steps, file);
  }
  return steps;
}
