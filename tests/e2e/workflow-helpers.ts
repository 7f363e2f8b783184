import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ProjectTrust } from '../../electron/main/project/trust';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventName } from '../../electron/contract/index';
import { Paths } from '../../electron/main/paths/index';
import { WorkflowEngine } from '../../electron/main/workflow/index';
import type { ScriptTurn } from '../fixtures/scripted-llm/index';

export const MODEL = resolve(__dirname, '../fixtures/workflow/scripted-model.mjs');
export const ADDER = resolve(__dirname, '../fixtures/projects/adder');
const ROOT = resolve(__dirname, '../..');
/** The CLI the workflow e2e tests run (needs `out/`: see ensureBuilt). */
export const CLI = join(ROOT, 'bin/erasmus.js');

/** Builds the app once if `out/` is missing (for a beforeAll with a generous timeout). */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'out/main/cli.cjs'))) spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

/** Kills a detached CLI child's whole process group if it is still running (for afterEach). */
export function killGroup(child: ChildProcess | undefined): void {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
}

export interface Sandbox {
  root: string;
  home: string;
  project: string;
  control: string;
  paths: Paths;
  events: Array<{ event: EventName; payload: unknown }>;
  engine: WorkflowEngine;
  setControl(c: Record<string, unknown>): Promise<void>;
  /** Trusts the project's .erasmus files as they are now (a user reviewing their own override). */
  trust(): Promise<void>;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/** A copy of the sample project in a fresh git repository, a private ERASMUS_HOME and an engine. */
export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'erasmus-wf-'));
  const home = join(root, 'home');
  const project = join(root, 'adder');
  await cp(ADDER, project, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: project, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const control = join(root, 'control.json');
  const env = { ...process.env, SCRIPTED_MODEL_CONTROL: control, ERASMUS_HOME: home };
  const paths = new Paths(home);
  const events: Sandbox['events'] = [];
  const engine = new WorkflowEngine({ paths, env, emit: (event, payload) => void events.push({ event, payload }) });
  return {
    root,
    home,
    project,
    control,
    paths,
    events,
    engine,
    env,
    setControl: (c) => writeFile(control, JSON.stringify(c)),
    trust: async () => void (await new ProjectTrust(paths.projectTrustFile).trust(project)),
    cleanup: async () => {
      await engine.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export function gitLog(project: string): string[] {
  return execFileSync('git', ['log', '--format=%s'], { cwd: project, encoding: 'utf8' }).trim().split('\n');
}

/** The states a run went through, without the ones interrupted by a crash. */
export function finishedStates(timeline: Array<{ state: string; outcome?: string }>): string[] {
  return timeline.filter((e) => e.outcome !== 'interrupted').map((e) => `${e.state}=${e.outcome}`);
}

/** The finished states of an uninterrupted run of the sample project with the scripted model. */
export const EXPECTED = [
  'prepare:architecture=written',
  'prepare:progress_schedule=written',
  'prepare:task_list=written',
  'adder:development=done',
  'adder:testing=tests-failed',
  'adder:debugging=tests-passed',
  'adder:review=done',
  'adder:fixes=done',
  'adder:documentation=done',
  'adder:retesting=tests-passed',
  'adder:commit=committed',
  'orchestration:adder=done',
  'final:testing=tests-passed',
  'final:documentation=done',
  'final:review=done',
  'final:fixes=skipped',
  'final:commit=committed',
];

/** The steps of EXPECTED that ask the model (a commit runs git, a step passed over asks nobody). */
export const ASKED = EXPECTED.filter((s) => !s.endsWith('=skipped')).map((s) => s.split('=')[0]!).filter((s) => !s.endsWith(':commit'));

/** One workflow step of the scripted model: on its task, write these files through the built-in files toolset, then answer. */
export function step(task: string, label: string, writes: Array<[string, string]>, answer: string): ScriptTurn[] {
  if (!writes.length) return [{ label, match: { lastUser: task }, text: answer }];
  return [
    { label, match: { lastUser: task }, toolCalls: writes.map(([path, content]) => ({ name: 'files__write_file', arguments: { path, content } })) },
    // Right after the write (not any later request, such as a follow-up asking for a part the answer lacks).
    { label: `${label} done`, match: { last: { regex: '^(created|replaced) ' } }, text: answer },
  ];
}

/** The adder run's steps from its documentation to the final review: README.md at `readme`, everything else passing. */
export function adderClosingSteps(readme: string): ScriptTurn[] {
  return [
    ...step('Document this component', 'documentation', [[readme, '# adder\n\nadd(a, b) returns a + b.\n']], 'Documented. Done.'),
    ...step('Run the component tests again', 'retesting', [], 'They pass. Done.'),
    ...step('Bring the progress schedule', 'orchestration', [], 'The schedule is up to date.'),
    ...step('All components are complete', 'e2e', [], 'End to end: fine.'),
    ...step('Write the final documentation', 'final docs', [], 'The README is complete. Done.'),
    ...step('Review the whole product', 'final review', [], '# Final review\n\nVerdict: no changes needed\n\nGood.\n'),
  ];
}

/**
 * Under `root`: a project (git, one empty commit) whose scripted model (parallel-model.mjs) plans components a and b side
 * by side, b's step stopping to ask while a's development is held in flight until the `hold` file goes; `env` sets
 * its home and the model's switches (add process.env for a CLI child).
 */
export async function askingLanes(root: string): Promise<{ project: string; hold: string; env: Record<string, string> }> {
  const project = join(root, 'project');
  await mkdir(project);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project, stdio: 'pipe' });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'Start'], { cwd: project, stdio: 'pipe' });
  const hold = join(root, 'hold');
  await writeFile(hold, '');
  const env = { ERASMUS_HOME: join(root, 'home'), PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_ASKS: 'b', PARALLEL_MODEL_HOLD: hold, PARALLEL_MODEL_HOLD_ONLY: 'a' };
  return { project, hold, env };
}
