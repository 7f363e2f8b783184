import { resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Core } from '../../main/api/core';
import type { WorkflowPlan, WorkflowRunView } from '../../contract/index';
import { WorkflowError, type ExecutorConfig } from '../../main/workflow/index';
import { relayRefusal, relaySilence, type RelayReply } from '../../main/workflow/relay';
import { preflightMessage, workflowPreflight } from '../../main/workflow/preflight';
import { dirtyRefusalMessage } from '../../main/workflow/run-git';
import { shellQuote } from '../../main/runners/policy/flags';
import { CANNOT_FINISH } from '../../main/workflow/agent-executor';
import { ProjectTrust } from '../../main/project/trust';
import { attachBuiltinServers } from '../../servers/builtin';
import { cliApprovalPath, installApprovalPath } from '../approval-path';
import { allowHostsOf, grantDepsOf } from '../../main/api/grant-deps';
import { reportText } from '../../contract/report-text';
import { readStdin, withCore } from '../context';
import { ask, asking, Interrupted, writeLine } from '../prompt';
import { stopOnSignals } from '../interrupt';
import { eventPrinter, planReviewHint, planText, runsText, statusText } from './workflow-print';
import { agentWatcher } from './workflow-watch';
import type { AgentEvent } from '../../contract/index';
import { humanState, humanStatus } from '../../contract/words';
import { registerWorkflowCheckpoints } from './workflow-checkpoints';
import { projectFolder } from '../../main/project/inspect';
import { isRepository, makeRepository } from '../../main/workflow/git';

interface DriveOpts {
  json?: boolean;
  yes?: boolean;
  autoApprove?: boolean;
  goal?: string;
  toolMode?: string;
  /** The final gate's command, set at plan review (--final-test). */
  finalTest?: string;
  /** How many components may run at once (--parallel N). */
  parallel?: number;
  /** A durable run's Postgres (--database-url; default ERASMUS_DATABASE_URL). */
  databaseUrl?: string;
  /** retry's --answer as typed ('-': read from stdin, which then cannot ask for approvals). */
  answer?: string;
}

/** `--parallel N`: a whole number from 1 to 16. */
function parallelOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError(`--parallel takes a whole number from 1 to 16 (how many components run at once), got ${JSON.stringify(value)}`);
  return n;
}
const DATABASE_HELP =
  "postgres://…: a durable run over DBOS, its components run by `erasmus worker` processes on any machine, each in a clone of the project's origin (default: ERASMUS_DATABASE_URL; without either, the run stays in this process)";
const PARALLEL_HELP = 'how many components run at once where the task list\'s Depends: lines let them, each in its own git worktree (default: config.yaml parallelComponents, else 2)';

/** Why a call was not run, as the step's model reads it: what happened and how it goes on, no command line meant for the user. */
const NOBODY_FOR_MODEL = `the user is not there to answer now; go on without it, and say in your final answer what you needed and why. Only if this step cannot be done without it, begin a line of your final answer with \`${CANNOT_FINISH}\` and what you need`;

const TOOL_MODES = ['auto', 'native', 'xml'] as const;
type ToolMode = (typeof TOOL_MODES)[number];
function toolModeOf(value: string | undefined): ToolMode | undefined {
  if (value === undefined) return undefined;
  if (!(TOOL_MODES as readonly string[]).includes(value)) throw new Error(`--tool-mode must be auto, native or xml, got ${JSON.stringify(value)}`);
  return value as ToolMode;
}

/** Runs that rest unfinished: a new goal started beside one would leave it behind without a word. */
const UNFINISHED = new Set(['BLOCKED', 'PAUSED', 'STOPPED', 'AWAITING_APPROVAL', 'AWAITING_COGNITIVE_RESULT']);

/**
 * Before a new run: the project's newest run, when it rests unfinished (blocked, paused, stopped, its plan waiting,
 * or interrupted), is resumed or abandoned as the user says; without a terminal the start is refused, naming both
 * commands, unless --new. A run that never got its goal is abandoned quietly (nothing was done in it).
 * Returns the run to resume instead of starting, if that is the choice.
 */
async function settleUnfinished(core: Core, projectDir: string, opts: { new?: boolean; goal?: string; databaseUrl?: string; dirty?: StartOpts['dirty'] }, again = `erasmus workflow start ${projectDir}${opts.goal ? ' --goal TEXT' : ''}`): Promise<string | undefined> {
  const [newest] = await core.workflow.list(projectDir);
  if (!newest) return undefined;
  if (newest.status === 'LOADED' || newest.status === 'AWAITING_GOAL') {
    await core.workflow.abandon(newest.runId).catch(() => undefined);
    return undefined;
  }
  const pid = await core.workflow.driverPid(newest.runId);
  if (pid) throw new Error(`run ${newest.runId}${newest.goal ? ` ("${firstLine(newest.goal)}")` : ''} is being driven by another Erasmus process (pid ${pid}): wait for it, or stop it first: erasmus workflow stop ${projectDir}`);
  if (!UNFINISHED.has(newest.status) && !newest.interrupted) return undefined;
  const what = `The last run${newest.goal ? ` ("${firstLine(newest.goal)}")` : ''} is ${humanStatus(newest.status, newest.interrupted).toLowerCase()}${newest.state ? ` at ${humanState(newest.state)}` : ''}`;
  const abandon = async () => {
    // Refused for uncommitted changes, the new run would not start: the old one is left as it was, not abandoned for nothing.
    await core.workflow.refuseDirtyTree(projectDir, opts.dirty);
    // A durable run's components' workflows are cancelled over its database: the one this command was given.
    const { kept, note } = await core.workflow.abandon(newest.runId, { databaseUrl: opts.databaseUrl });
    process.stderr.write(`${what}: it is marked abandoned; its documents and commits stay.\n`);
    // A parallel run's components not merged: their worktrees and branches are gone, their work is kept under a ref each.
    for (const k of kept ?? []) process.stderr.write(`  component ${k.component} was not merged: its work is kept under ${k.ref} (git log ${k.ref}; git switch -c <branch> ${k.commit.slice(0, 8)} to go on with it)\n`);
    if (note) process.stderr.write(`  not done: ${note}\n`);
  };
  if (opts.new) return abandon().then(() => undefined);
  if (!process.stdin.isTTY) {
    throw new Error(`${what}. Resume it: erasmus workflow resume ${projectDir}, or start anyway and mark it abandoned: ${again} --new`);
  }
  for (;;) {
    const a = (await ask(`${what}. Resume it (r), or start ${opts.goal ? 'the new goal' : 'a new run'} and mark it abandoned (n)? [r/n] `)).trim().toLowerCase();
    if (a === 'r' || a === 'resume') return newest.runId;
    if (a === 'n' || a === 'new') return abandon().then(() => undefined);
    if (a === '') throw new Error('nothing started: answer r (resume) or n (new)');
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** The plan to approve: as proposed, or with the final gate's command the user gave. */
function approved(plan: WorkflowPlan | undefined, opts: DriveOpts): WorkflowPlan | undefined {
  return plan && opts.finalTest !== undefined ? { ...plan, finalTestCommand: opts.finalTest } : undefined;
}

const EXIT: Record<string, number> = { COMPLETED: 0, AWAITING_APPROVAL: 0, AWAITING_GOAL: 3, PAUSED: 4, STOPPED: 4, BLOCKED: 2 };

type StartOpts = DriveOpts & { executor: string; command?: string; provider?: string; model?: string; baseUrl?: string; autoApprove?: boolean; maxCost?: string; new?: boolean; dirty?: 'commit' | 'stash' | 'include' };

/** The options of a command that starts a run (start, drift --fix): its executor, approvals and the project's state. */
function agentRunOptions(cmd: Command, json = 'print the event stream as JSON lines'): Command {
  return cmd
    .option('--executor <kind>', 'agent (the agent loop) or command', 'agent')
    .option('--command <cmd>', 'for --executor command: run per step, step JSON on stdin, result JSON on stdout')
    .option('--provider <name>', 'agent provider (default: config.yaml)')
    .option('--model <name>', 'agent model')
    .option('--base-url <url>', 'agent provider base URL (an OpenAI-compatible endpoint when nothing is configured)')
    .option('--auto-approve', 'approve tool calls the policy does not refuse and the servers\' confirmations (unattended)')
    .option('--max-cost <usd>', 'stop the run cleanly once its steps have cost this many US dollars (agent executor; default: config.yaml runBudgetUsd)')
    .option('--tool-mode <mode>', 'how the model calls tools: auto, native (the provider\'s tool calls) or xml (tags in its text); default: config.yaml toolMode')
    .option('--new', 'start even when the project\'s last run is unfinished (blocked, paused, stopped, interrupted): that run is marked abandoned')
    .option('-y, --yes', 'approve the plan without asking, and tool calls as --auto-approve does')
    .option('--json', json)
    .addOption(new Option('--dirty <choice>', 'the project has uncommitted changes: commit them first, stash them, or include them (never committed by the run)').choices(['commit', 'stash', 'include']));
}

/**
 * A refusal for uncommitted changes, said with the commands to copy: this one again (its folder, its goal quoted for the
 * shell), once per choice; any other error as it is.
 */
function dirtyAgain(dir: string, again: string): (err: unknown) => never {
  return (err) => {
    const dirty = err instanceof WorkflowError ? err.details?.dirty : undefined;
    if (!dirty) return friendly(err);
    const how = `commit or stash them yourself, or start again with one of these:\n  ${again} --dirty commit\n  ${again} --dirty stash\n  ${again} --dirty include`;
    return friendly(new WorkflowError((err as WorkflowError).kind, dirtyRefusalMessage(dir, dirty, how), { dirty }));
  };
}

/** Starts a run as the command's options say (the project's unfinished run resumed or abandoned first, as the user chooses), and drives it. */
async function startRun(core: Core, dir: string, o: StartOpts, load: { goal?: string; branch?: 'branch' | 'current'; parallel?: number; documents?: 'drifted'; databaseUrl?: string }): Promise<void> {
  await projectFolder(dir); // before its servers start in it: a path that is not a folder is said as such
  const executor = executorOf(o);
  await preflight(core, resolve(dir), executor, o);
  // This command again, to copy: its folder, its goal quoted for the shell.
  const again = load.documents ? `erasmus workflow drift ${shellQuote(resolve(dir))} --fix` : `erasmus workflow start ${shellQuote(resolve(dir))}${load.goal ? ` --goal ${shellQuote(load.goal)}` : ''}`;
  const resumeId = await settleUnfinished(core, resolve(dir), o, load.documents ? `erasmus workflow drift ${resolve(dir)} --fix` : undefined).catch(dirtyAgain(resolve(dir), o.new ? `${again} --new` : again));
  if (resumeId) {
    if (o.toolMode) await core.workflow.setToolMode(resumeId, toolModeOf(o.toolMode)!).catch(friendly);
    await drive(core, resumeId, { ...o, goal: undefined }, () => core.workflow.resume(resumeId, { parallel: o.parallel, databaseUrl: o.databaseUrl })).catch(friendly);
    return;
  }
  if (!(await isRepository(resolve(dir))) && !(await offerGitInit(resolve(dir), o))) return;
  const { runId } = await core.workflow.load({ projectDir: dir, executor, dirtyTree: o.dirty, ...load }).catch(dirtyAgain(resolve(dir), again));
  process.stderr.write(`run ${runId}\n`);
  // Started on an unfinished run's branch: its commits come along, and the user hears so before anything runs.
  const { git } = await core.workflow.status(runId).catch(friendly);
  if (git?.startedFrom) {
    const f = git.startedFrom;
    process.stderr.write(`It starts from branch ${f.branch} at ${f.commit.slice(0, 8)}${f.runId ? ` (the unfinished run ${f.runId})` : ''}: the commits there that ${git.base ?? 'its base'} lacks come along, and are finished with this run${git.base ? ` into ${git.base}` : ''}.\n`);
  }
  await drive(core, runId, { ...o, goal: undefined }, () => core.workflow.start(runId)).catch(friendly);
}

/**
 * A folder that is no git repository: a run there commits nothing (a commit after each component needs one). On a
 * terminal the user is asked to make one (`git init`, Erasmus's own command, not the model's); elsewhere it is said, with
 * the fix, before anything runs. False: the user quit at the question (Ctrl-C), nothing started.
 */
async function offerGitInit(dir: string, o: StartOpts): Promise<boolean> {
  const why = `${dir} is not a git repository, so a run here commits nothing (a commit after each component needs one)`;
  // Not asked where nobody answers, nor with --yes (no question is asked then; the folder is not changed unasked).
  if (!process.stdin.isTTY || o.json || o.yes) {
    process.stderr.write(`note: ${why}. To have them, run \`git init\` there before starting.\n`);
    return true;
  }
  let answer: string;
  try {
    answer = (await ask(`${why}. Make one here now (git init, and a first commit of the files here)? [Y/n] `)).trim().toLowerCase();
  } catch (err) {
    if (!(err instanceof Interrupted)) throw err;
    process.stderr.write('Nothing started.\n');
    process.exitCode = 130;
    return false;
  }
  if (answer === 'n' || answer === 'no') {
    process.stderr.write('The run goes on without git: its steps change the folder, and nothing is committed.\n');
    return true;
  }
  const made = await makeRepository(dir);
  if ('held' in made) {
    process.stderr.write(`Made a git repository in ${dir}, but did not commit the files there: ${made.held.join(', ')} ${made.held.length > 1 ? 'are' : 'is'} there and no .gitignore leaves ${made.held.length > 1 ? 'them' : 'it'} out. Add a .gitignore, commit the files, then start again. Nothing started.\n`);
    return false;
  }
  process.stderr.write(`Made a git repository in ${dir}${made.committed ? `, its ${made.committed} file(s) as a first commit` : ''}: each component is committed as it is finished.\n`);
  return true;
}

/**
 * A retry or skip another process applied (relay.ts): what it did, in which process (its terminal or window shows the
 * steps), exit 0; or its refusal in its words, non-zero.
 */
function relayed(reply: RelayReply, c: { dir: string; runId: string; verb: 'retry' | 'skip'; json?: boolean; answered: boolean; component?: string }): void {
  if (c.json) process.stdout.write(JSON.stringify({ relayed: reply }) + '\n');
  if (!reply.ok) throw new Error(relayRefusal(reply.pid, c.runId, c.verb, reply.message));
  const who = c.component ? `component ${c.component}` : 'the blocked step';
  const what = c.verb === 'skip' ? `${c.component ? `component ${c.component}'s step is skipped: it goes on with its next step` : 'the blocked step is skipped: the run goes on with the next one'}` : `${who} runs again${c.answered ? ' with your answer' : ''}`;
  process.stderr.write(`${what}, in process ${reply.pid}, which drives the run (its steps show there; erasmus workflow status ${shellQuote(c.dir)} tells where it is)\n`);
}

/** Where a run rests, as the command's last lines: its status without the timeline (the step lines were printed as they came). */
function restText(view: WorkflowRunView): string {
  return `${statusText(view).split('\ntimeline:')[0]}\n`;
}

/** Drives a run in this process until it completes or waits for someone; answers the goal and the plan when it can. */
async function drive(core: Core, runId: string, opts: DriveOpts, begin: () => Promise<unknown>): Promise<void> {
  // Each step's tool calls in words, "waiting for the model…" while a request takes long, and what a long call runs and does.
  const watcher = agentWatcher((line) => writeLine(line), Date.now, asking);
  const eventLine = eventPrinter();
  const off = core.bus.on((event, payload) => {
    if (event === 'agent.event' && !opts.json) return watcher.onEvent(payload as AgentEvent);
    if (!event.startsWith('workflow.') && event !== 'app.notify') return;
    if (opts.json) process.stdout.write(JSON.stringify({ event, payload }) + '\n');
    else {
      const line = eventLine(event, payload);
      if (line) writeLine(line);
    }
  });
  const run = await core.workflow.status(runId);
  if (run.executor === 'agent') {
    await attachAgentFace(core, run.projectDir, opts);
    if (!opts.yes && !opts.autoApprove && !process.stdin.isTTY && !opts.json) {
      process.stderr.write(
        opts.answer === '-'
          ? 'Steps may need your approval (to replace a file, or to run a command that is not read-only). Standard input gave the answer (--answer -), so it cannot ask you for them: such calls are refused and the step goes on without them. To give approvals, pass the answer as text instead (--answer "$(cat answer.txt)"), or pass --yes (approves every call the policy does not refuse).\n'
          : 'Steps may need your approval (to replace a file, or to run a command that is not read-only). Nobody can be asked here, so such calls are refused and the step goes on without them. To give approvals, run this from a terminal, or pass --yes (approves every call the policy does not refuse).\n',
      );
    }
  }
  // Ctrl-C or `erasmus workflow stop` (SIGTERM) stops now (a second Ctrl-C says it still saves, a third quits at once);
  // `erasmus workflow pause` (SIGUSR1) pauses after the step.
  const signals = stopOnSignals({ stop: () => core.workflow.stop(runId), say: (line, afterCtrlC) => writeLine(afterCtrlC && process.stderr.isTTY && !asking() ? `\n${line}` : line), resume: `erasmus workflow resume ${shellQuote(run.projectDir)}`, exit: (code) => process.exit(code) });
  const onPause = () => void core.workflow.pause(runId).catch(() => undefined);
  process.on('SIGUSR1', onPause);
  try {
    await begin();
    for (;;) {
      const view = await core.workflow.waitForRest(runId, 24 * 3600_000);
      if (view.status === 'AWAITING_GOAL') {
        const suggested = view.suggestedGoal;
        let goal = opts.goal ?? '';
        if (!goal && process.stdin.isTTY && view.nextGoal) {
          goal = (await ask('Every task of this project is done. What should it do next? ')).trim();
        } else if (!goal && process.stdin.isTTY) {
          if (suggested) process.stderr.write(`${suggested.file} describes this project:\n  ${suggested.goal}\n`);
          goal = (await ask(suggested ? `What should this project do? (Enter uses ${suggested.file}'s description) ` : 'What should this project do? ')).trim() || (suggested?.goal ?? '');
        }
        if (!goal && view.nextGoal) throw new Error(`every task of this project is done: to build more, pass what comes next with --goal TEXT`);
        if (!goal) throw new Error(`the project has no architecture document yet: pass --goal TEXT${suggested ? ` (${suggested.file} says: "${suggested.goal}")` : ''}`);
        opts.goal = undefined;
        await core.workflow.answerGoal(runId, goal);
        continue;
      }
      if (view.status === 'AWAITING_APPROVAL' && view.plan) {
        // The plan with where the architecture it follows is (the user reads it before saying yes; the app shows it beside).
        if (!opts.json) process.stderr.write(`${planText(view.plan, view.existing)}\n${view.architectureFile ? `  architecture: ${view.architectureFile}\n` : ''}`);
        const yes = opts.yes || (process.stdin.isTTY && /^y(es)?$/i.test((await ask('Start development with this plan? [y/N] ')).trim()));
        if (yes) {
          await core.workflow.approve(runId, approved(view.plan, opts), { parallel: opts.parallel, databaseUrl: opts.databaseUrl });
          continue;
        }
        // How to approve it later, and where to change it first: the status below says it (with --json, this line alone).
        if (opts.json) process.stderr.write(`${planReviewHint(view)}\n`);
      }
      if (view.status === 'AWAITING_COGNITIVE_RESULT') throw new Error('this run uses the external cognitive engine: drive it through the Erasmus MCP server or `erasmus serve`');
      if (!opts.json) process.stderr.write(restText(view));
      // Stopped by Ctrl-C: 130, as any command the user interrupts (`erasmus workflow stop` ends it with STOPPED's 4).
      process.exitCode = signals.by === 'SIGINT' && view.status === 'STOPPED' ? 130 : (EXIT[view.status] ?? 1);
      if (view.status === 'COMPLETED' && !opts.json) await offerFinish(core, view);
      return;
    }
  } catch (err) {
    if (err instanceof Interrupted && !signals.by) {
      // Ctrl-C at the goal's or the plan's question: the run rests as it was (nothing to stop); the process quits with 130.
      // The SIGINT the question sends itself comes after this: not a stop (the listener is gone by then).
      signals.dispose();
      const view = await core.workflow.status(runId);
      if (!opts.json) process.stderr.write(restText(view));
      process.exitCode = 130;
      return;
    }
    if (!signals.by) throw err;
    // A signal stopped the run and something failed on the way (a call cut off as the run stopped): the stop is what
    // happened; the status below says how to go on.
    await signals.stopped();
    const view = await core.workflow.status(runId);
    if (!opts.json) process.stderr.write(restText(view));
    process.exitCode = signals.by === 'SIGINT' ? 130 : (EXIT[view.status] ?? 1);
  } finally {
    watcher.dispose();
    // Stopped by a signal: the run is saved; a Ctrl-C while the command closes its tools says so (the third quits at once).
    if (!signals.by) signals.dispose();
    process.off('SIGUSR1', onPause);
    off();
  }
}

/**
 * A completed run on a branch of its own: its pull request (title, where the body is saved), then on a terminal
 * the choice to squash it into the branch it started from or keep it; without one, the command for each.
 */
async function offerFinish(core: Core, view: WorkflowRunView): Promise<void> {
  const g = view.git;
  if (!g || g.mode !== 'branch' || !g.branch || g.finished) return;
  const { pullRequest } = await core.workflow.report(view.runId);
  if (pullRequest) process.stderr.write(`Pull request: ${pullRequest.title}\n  summary (title and body, to copy): ${pullRequest.file}\n`);
  const cmd = (c: 'squash' | 'keep') => `erasmus workflow finish ${view.projectDir} --${c}`;
  const into = g.base ? `squash and merge it into ${g.base}` : '';
  if (!process.stdin.isTTY) {
    process.stderr.write(`The run's work is on branch ${g.branch}.${g.base ? ` To ${into}: ${cmd('squash')}.` : ''} To keep the branch for a pull request: ${cmd('keep')}.\n`);
    return;
  }
  for (;;) {
    const q = g.base ? `The run's work is on branch ${g.branch}. Squash and merge it into ${g.base} (s), or keep the branch (k)? [s/k] ` : `The run's work is on branch ${g.branch}. Keep the branch (k)? [k] `;
    const a = (await ask(q)).trim().toLowerCase();
    const choice = a === 's' || a === 'squash' ? 'squash' : a === 'k' || a === 'keep' ? 'keep' : undefined;
    if (!choice || (choice === 'squash' && !g.base)) {
      if (a === '') return void process.stderr.write(`Nothing chosen: the run's work stays on ${g.branch}. Later: ${g.base ? `${cmd('squash')} or ` : ''}${cmd('keep')}\n`);
      continue;
    }
    try {
      process.stderr.write(`${(await core.workflow.finish(view.runId, choice)).message}\n`);
      return;
    } catch (err) {
      // Refused (the base moved in a conflicting way, uncommitted changes in the way): nothing changed; say why and stop asking.
      process.stderr.write(`${(err as Error).message}\n`);
      return;
    }
  }
}

/**
 * What a step's agent session needs in this process, as `erasmus chat` has it: the hub on the
 * project, Erasmus's own files and runners toolsets rooted there, and one approval path (`--yes` or
 * `--auto-approve` accept, a terminal asks, otherwise a call that needs approval is refused at once).
 */
const attached = new WeakSet<Core>();
async function attachAgentFace(core: Core, projectDir: string, opts: DriveOpts): Promise<void> {
  if (attached.has(core)) return;
  attached.add(core);
  await core.hub.start({ projectDir, watch: false });
  for (const issue of core.hub.configErrors()) process.stderr.write(`erasmus: ${issue.file}${issue.entry ? ` (${issue.entry})` : ''}: ${issue.message}\n`);
  // The refusal a step's model reads speaks to the model (the user was told at the start how to give approvals).
  const path = cliApprovalPath({ yes: opts.yes || opts.autoApprove, json: opts.json, command: 'erasmus workflow', nobodyBecause: NOBODY_FOR_MODEL, grants: grantDepsOf(core), allowHosts: allowHostsOf(core) });
  installApprovalPath(core.hub, path);
  core.agent.setApprovals(path.approvals);
  await attachBuiltinServers(core, { root: projectDir });
}

/** Before a run starts: the provider and every toolset the protocols need, or what is missing and how to get it. */
async function preflight(core: Core, projectDir: string, executor: ExecutorConfig, opts: DriveOpts): Promise<void> {
  if (executor.kind !== 'agent') return;
  await attachAgentFace(core, projectDir, opts);
  const problems = await workflowPreflight({
    projectDir,
    availableToolsets: core.hub.toolsets().map((t) => t.name),
    provider: () => core.agent.provider({ provider: executor.provider, model: executor.model, baseUrl: executor.baseUrl }),
    trust: new ProjectTrust(core.paths.projectTrustFile),
  });
  // On a terminal: where config.yaml is, and the model named on the command line.
  const cliHow = `Add one under providers: in ${core.paths.configYaml} (or in the app's Settings → Providers), or pass --base-url URL --model NAME for an OpenAI-compatible endpoint.`;
  if (problems.length) throw new Error(preflightMessage(problems.map((p) => (p.fix === 'providers' && p.how.startsWith('Add a provider') ? { ...p, how: cliHow } : p))));
}

async function latestRun(core: Core, dir: string, runId?: string): Promise<string> {
  if (runId) return runId;
  const id = await core.workflow.latest(resolve(dir));
  if (!id) throw new Error(`no workflow run for ${resolve(dir)}: start one with erasmus workflow start ${dir}`);
  return id;
}

function executorOf(o: { executor: string; command?: string; provider?: string; model?: string; baseUrl?: string; autoApprove?: boolean; yes?: boolean; maxCost?: string; toolMode?: string }): ExecutorConfig {
  if (o.executor === 'command') {
    if (!o.command) throw new Error('--executor command needs --command CMD');
    return { kind: 'command', command: o.command };
  }
  if (o.executor === 'agent') {
    const maxCostUsd = o.maxCost === undefined ? undefined : Number(o.maxCost);
    if (maxCostUsd !== undefined && !(maxCostUsd > 0)) throw new Error(`--max-cost must be a positive number of US dollars, got ${JSON.stringify(o.maxCost)}`);
    const toolMode = toolModeOf(o.toolMode);
    return { kind: 'agent', provider: o.provider, model: o.model, baseUrl: o.baseUrl, autoApprove: o.autoApprove || o.yes, ...(toolMode ? { toolMode } : {}), ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) };
  }
  throw new Error(`unknown executor ${JSON.stringify(o.executor)} (agent or command; the external engine is served by the Erasmus MCP server)`);
}

function friendly(err: unknown): never {
  if (err instanceof WorkflowError) throw new Error(`${err.kind}: ${err.message}`);
  throw err;
}

export function registerWorkflow(program: Command): void {
  const wf = program.command('workflow').description('the development workflow: documents, plan, FSM run (resumable)');
  const runOpt = (c: Command) => c.option('--run <id>', 'a run id (default: the project\'s newest run)');

  agentRunOptions(
    wf
      .command('start <dir>')
      .description('start a run: write or load the documents, show the plan, develop each component')
      .option('--goal <text>', 'what to build: the project\'s first goal, or a new one for a project built before (asked when needed)'),
  )
    .option('--final-test <cmd>', 'at plan review: the final gate\'s command (default: the project\'s whole test suite and each component\'s command)')
    .option('--current-branch', 'work on the branch checked out instead of a new erasmus/<goal> branch (config.yaml: git: {branch: current})')
    .option('--parallel <n>', PARALLEL_HELP, parallelOf)
    .option('--database-url <url>', DATABASE_HELP)
    .option('--own-branch', 'work on a new erasmus/<goal> branch even when config.yaml says git: {branch: current}')
    .action(async (dir: string, o: StartOpts & { currentBranch?: boolean; ownBranch?: boolean }) => {
      await withCore(async (core) => {
        const branch = o.currentBranch ? { branch: 'current' as const } : o.ownBranch ? { branch: 'branch' as const } : {};
        await startRun(core, dir, o, { goal: o.goal, ...branch, ...(o.parallel ? { parallel: o.parallel } : {}), ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}) });
      });
    });

  runOpt(wf.command('status <dir>').description('show the run: status, state, error, timeline').option('--json', 'print JSON')).action(
    async (dir: string, o: { json?: boolean; run?: string }) => {
      await withCore(async (core) => {
        const view = await core.workflow.status(await latestRun(core, dir, o.run)).catch(friendly);
        process.stdout.write((o.json ? JSON.stringify(view, null, 2) : statusText(view)) + '\n');
      });
    },
  );

  runOpt(
    wf
      .command('report <dir>')
      .description('what the run verified: each task, the tests Erasmus ran that name it (from the runner\'s report) and its component\'s commit')
      .option('--json', 'print JSON: {goal, verified, tasks: [{id, component, title, tests: [{name, file, passed}], commit}], …}'),
  ).action(async (dir: string, o: { json?: boolean; run?: string }) => {
    await withCore(async (core) => {
      const report = await core.workflow.report(await latestRun(core, dir, o.run)).catch(friendly);
      process.stdout.write((o.json ? JSON.stringify(report, null, 2) : reportText(report)) + '\n');
    });
  });

  runOpt(
    wf
      .command('finish <dir>')
      .description('a completed run on its own branch: squash and merge it into the branch it started from, or keep the branch for a pull request')
      .option('--squash', 'one commit on the branch the run started from, holding the run\'s changes (refused, nothing changed, if that branch moved in a conflicting way)')
      .option('--keep', 'keep the run\'s branch as it is, for a pull request (its summary is saved; see workflow report)'),
  ).action(async (dir: string, o: { squash?: boolean; keep?: boolean; run?: string }) => {
    if (o.squash && o.keep) throw new Error('choose one: --squash (merge the run\'s branch into the branch the run started from) or --keep');
    await withCore(async (core) => {
      const runId = await latestRun(core, dir, o.run);
      if (!o.squash && !o.keep) {
        // Only a choice that can be taken is asked for: a run not completed, finished already, or with no branch of its own
        // (it worked on the branch checked out) is told why, as `finish` says it.
        const { git: g, status } = await core.workflow.status(runId).catch(friendly);
        if (status === 'COMPLETED' && g?.mode === 'branch' && !g.finished) throw new Error('say what to do with the run\'s branch: --squash (merge it into the branch the run started from) or --keep');
      }
      const out = await core.workflow.finish(runId, o.squash ? 'squash' : 'keep').catch(friendly);
      process.stdout.write(`${out.message}\n`);
    });
  });

  agentRunOptions(
    wf
      .command('drift <dir>')
      .description('the context documents whose subject changed since the commit they describe (files touched after it); --fix brings them up to date')
      .option('--fix', 'bring the drifted documents up to date: a documentation run, one documentation step per document, committed on the branch checked out'),
    '--json: print JSON: {documents: [{doc, component?, path, commit, changed}]} (with --fix: the event stream as JSON lines)',
  )
    .option('--own-branch', 'with --fix: work on a new erasmus/<goal> branch instead of the branch checked out')
    .action(async (dir: string, o: StartOpts & { fix?: boolean; ownBranch?: boolean }) => {
      await withCore(async (core) => {
        if (o.fix) return startRun(core, dir, o, { documents: 'drifted', ...(o.ownBranch ? { branch: 'branch' as const } : {}) });
        const documents = await core.workflow.drift(dir);
        if (o.json) return void process.stdout.write(JSON.stringify({ documents }, null, 2) + '\n');
        if (!documents.length) return void process.stdout.write('No document drifted: each describes its subject as committed.\n');
        for (const d of documents) {
          process.stdout.write(`${d.component ? `component ${d.component}` : d.doc} (${d.path}) describes commit ${d.commit.slice(0, 12)}; changed since: ${d.changed.join(', ')}\n`);
        }
        process.stdout.write(`Bring them up to date with a documentation step each: erasmus workflow drift ${dir} --fix (or edit the files named, or leave them as the record of that commit).\n`);
      });
    });

  const control = (name: 'approve' | 'resume' | 'retry' | 'skip', description: string) =>
    runOpt(wf.command(`${name} <dir>`).description(description))
      .option('--goal <text>', 'answer the goal question if the run asks it')
      .option('--tool-mode <mode>', 'how the model calls tools from now on: auto, native or xml (agent runs)')
      // The same --yes as start's: the refusals a step's calls get without it say "run it again with --yes".
      .option('-y, --yes', 'approve the plan without asking, and tool calls as start --auto-approve does')
      .option('--auto-approve', 'approve tool calls the policy does not refuse and the servers\' confirmations (unattended), as start\'s does')
      .option('--final-test <cmd>', 'at plan review: the final gate\'s command (default: the project\'s whole test suite and each component\'s command)')
      .option('--json', 'print the event stream as JSON lines')
      .addOption(new Option('--parallel <n>', PARALLEL_HELP).argParser(parallelOf).hideHelp(name !== 'approve' && name !== 'resume'))
      .option('--database-url <url>', DATABASE_HELP)
      .addOption(new Option('--answer <text>', "retry: your answer to what the step stopped to ask (it hears it with the retry); '-' reads it from stdin").hideHelp(name !== 'retry'))
      .addOption(new Option('--component <id>', `components side by side: the blocked component whose step to ${name} (its blocked message names it); the other blocked ones stay blocked. Without it, ${name === 'retry' ? "every blocked component's step runs again" : 'the first blocked one'}`).hideHelp(name !== 'retry' && name !== 'skip'))
      .action(async (dir: string, o: DriveOpts & { run?: string; component?: string }) => {
        if (o.parallel !== undefined && name !== 'approve' && name !== 'resume') throw new InvalidArgumentError(`--parallel applies to workflow start, approve and resume, not ${name}`);
        if (o.answer !== undefined && name !== 'retry') throw new InvalidArgumentError(`--answer applies to workflow retry, not ${name}`);
        if (o.component !== undefined && name !== 'retry' && name !== 'skip') throw new InvalidArgumentError(`--component applies to workflow retry and skip, not ${name}`);
        const answer = o.answer === '-' ? await readStdin() : o.answer;
        if (answer !== undefined && !answer.trim()) throw new InvalidArgumentError('--answer is empty: write the answer to what the step asked, or retry without --answer');
        await withCore(async (core) => {
          const runId = await latestRun(core, dir, o.run);
          if (o.toolMode) await core.workflow.setToolMode(runId, toolModeOf(o.toolMode)!).catch(friendly);
          // Which run this takes up, before its steps' lines (the project may have several).
          const head = await core.workflow.status(runId).catch(friendly);
          const verb = { approve: 'approving the plan of', resume: 'resuming', retry: 'retrying the step of', skip: 'skipping the step of' }[name];
          // A component named (--component): its step, not the components' phase the run's state names.
          const at = (o.component ? head.lanes?.find((l) => l.component === o.component)?.state : undefined) ?? head.state;
          process.stderr.write(`${verb} run ${runId}${head.goal ? ` ("${firstLine(head.goal)}")` : ''}${at && !at.startsWith('prepare:') && at !== 'completed' ? `, at ${humanState(at)}` : ''}\n`);
          // Driven by another process (a component stopped to ask while others run there): that process holds the run,
          // so the retry or skip is handed to it (relay.ts), which applies it as its own call; this one says what it did.
          const handed = name === 'retry' || name === 'skip' ? name : undefined;
          const driver = handed ? await core.workflow.driverPid(runId) : undefined;
          if (driver && handed) {
            const outcome = await core.workflow.relay(runId, driver, { verb: handed, ...(o.component !== undefined ? { component: o.component } : {}), ...(answer !== undefined ? { answer } : {}) });
            if (outcome.kind === 'reply') return relayed(outcome.reply, { dir, runId, verb: handed, json: o.json, answered: answer !== undefined, component: o.component ?? head.lanes?.find((l) => l.status === 'blocked')?.component });
            if (outcome.kind === 'silent') throw new Error(relaySilence(driver, runId, handed, outcome.taken, `erasmus workflow pause ${shellQuote(dir)}`, 'run this command again').replace("see the run's status", `see erasmus workflow status ${shellQuote(dir)}`));
            // Gone: it let go of the run before taking the call (the run came to rest, or the process ended): taken here as usual.
          }
          await drive(core, runId, o, async () => {
            if (name === 'approve') return core.workflow.approve(runId, approved((await core.workflow.plan(runId)).plan ?? undefined, o), { parallel: o.parallel, databaseUrl: o.databaseUrl });
            if (name === 'skip') return core.workflow.skip(runId, { databaseUrl: o.databaseUrl, component: o.component });
            const view = await core.workflow.status(runId);
            if (view.status === 'AWAITING_APPROVAL' || view.status === 'AWAITING_GOAL') return; // drive() answers them
            return name === 'retry' ? core.workflow.retry(runId, { databaseUrl: o.databaseUrl, answer, component: o.component }) : core.workflow.resume(runId, { parallel: o.parallel, databaseUrl: o.databaseUrl });
          }).catch(friendly);
        });
      });
  control('approve', 'approve the plan and develop');
  control('resume', 'continue a paused, stopped, blocked or interrupted run from its last state');
  control('retry', 'run the current (blocked) step again');
  control('skip', 'skip the current step and continue');

  const signalled = (name: 'pause' | 'stop', description: string) =>
    runOpt(wf.command(`${name} <dir>`).description(description)).action(async (dir: string, o: { run?: string }) => {
      await withCore(async (core) => {
        const runId = await latestRun(core, dir, o.run);
        const pid = await core.workflow.driverPid(runId);
        if (pid) {
          process.kill(pid, name === 'pause' ? 'SIGUSR1' : 'SIGTERM');
          process.stderr.write(`asked process ${pid} to ${name} run ${runId}\n`);
          return;
        }
        if (name === 'pause') throw new Error(`run ${runId} is not running in any process`);
        // Stopped here (no process drove it): said in words with how to go on, as any command that leaves a run resting.
        await core.workflow.stop(runId).catch(friendly);
        process.stderr.write(restText(await core.workflow.status(runId)));
      });
    });
  signalled('pause', 'pause the run after its current step (in whichever process drives it)');
  signalled('stop', "stop the run now (the current step is aborted; resume runs it again). A durable run's components go on in their `erasmus worker` processes; resume takes up what they did, and abandoning the run (start --new) cancels them");

  registerWorkflowCheckpoints(wf, { latestRun, friendly });

  wf.command('list')
    .description('the goals of every project (or of --project DIR) and their runs, newest first')
    .option('--project <dir>', 'only this project')
    .option('--json', 'print JSON')
    .action(async (o: { project?: string; json?: boolean }) => {
      await withCore(async (core) => {
        const runs = await core.workflow.list(o.project);
        process.stdout.write(o.json ? JSON.stringify({ runs }) + '\n' : runsText(runs));
      });
    });
}
