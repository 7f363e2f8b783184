import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { AgentEvent, ApprovalsPolicy, ChatMessage, EndReason, ToolMode, Usage } from '../../contract/index';
import type { Paths } from '../paths/index';
import { resourcesDir } from '../paths/index';
import type { InterpolationSources } from '../secrets/index';
import { newSessionId, restoreContext, SessionLog } from '../sessions/index';
import { UnansweredApproval } from './approval-path';
import { ApprovalBroker, type ApprovalRequester } from './approvals';
import type { ContextEntry } from './context';
import { KEPT_NAME } from './kept-output';
import type { LoopEvent } from './events';
import { openToolsetInto, runAgentLoop, type Budgets, type LoopState } from './loop';
import { ToolPolicy, type CommandClassifier } from './policy';
import { assembleSystemPrompt } from './prompt/assemble';
import { dynamicSections } from './prompt/dynamic';
import { loadStaticSections, type PromptSection } from './prompt/sections';
import { loadAgentConfig, resolveProvider, type AgentConfigFile, type ProviderOverrides } from './providers/config';
import type { ProviderHandle } from './providers/types';
import { summarizer } from './summarize';
import type { AgentTools, ShellRunner } from './tools';
import type { ProjectAccess } from '../runners/runner';
import { stepTools, stepToolsSection, worktreeTools, type StepScope } from './project-access';
import { emptyUsage } from './usage';
import type { XmlSupport } from './xml-support';

export interface AgentSessionDeps {
  paths: Paths;
  /** Where `${secret:NAME}` / `${env:NAME}` in provider config come from. */
  sources: InterpolationSources;
  tools?: AgentTools;
  classifyCommand?: CommandClassifier;
  /** Who answers approvals; default: the session's ApprovalBroker (answer with `session.approve`). */
  approvals?: ApprovalRequester;
  xml?: XmlSupport;
  shell?: ShellRunner;
  clock?: () => number;
  /** Masks secrets in the session log and archive. */
  redact?: (text: string) => string;
  /** config.yaml to read providers from (default ERASMUS_HOME/config.yaml). */
  configFile?: string;
  /** Before each user turn, while nothing of it is in the log yet (a checkpoint of the project); a failure is a warning, never the end of the turn. */
  beforeTurn?: (turn: TurnStart) => Promise<void>;
}

/** Where a conversation stands when a user turn begins: its number (1 = the task) and the log entries before it. */
export interface TurnStart {
  sessionId: string;
  project?: string;
  turn: number;
  logPath: string;
  entries: number;
}

export interface AgentSessionOptions {
  /** The task: the first user message (or, on resume, the new user message). */
  task: string;
  project?: string;
  protocolPrompt?: string;
  sections?: PromptSection[];
  /** Toolsets offered (default: all). */
  toolsets?: string[];
  /** Toolsets opened from the start. */
  openToolsets?: string[];
  /**
   * A workflow run's toolsets, in one order: the session opens and describes all of them (the same tools and tool
   * documentation in every step of the run, so each step's prompt starts as the last one's did, for the provider's
   * cache); `toolsets` and `projectAccess` then say which of their tools this step may call ("This step's tools",
   * after that shared start), and a call to another is refused in words before anyone is asked.
   */
  runToolsets?: string[];
  /** Sections every step of a run shares (the architecture): after the tools, before the protocol. */
  sharedSections?: PromptSection[];
  provider?: ProviderOverrides | ProviderHandle;
  toolMode?: ToolMode;
  budgets?: Budgets;
  /** true = approvals policy `unattended` (`--yes`); false or absent = the `approvals` option or config.yaml's. */
  autoApprove?: boolean;
  /** Approvals policy; default: config.yaml `approvals:`, else `non-destructive`. */
  approvals?: ApprovalsPolicy;
  /** What the session may do to the project (default `write`): `read` (design, review) and `markdown` (documentation) get no files tools that write (Markdown files only for `markdown`) and runner commands with the project mounted read-only. */
  projectAccess?: ProjectAccess;
  /** A parallel run's component step: the git worktree of the project it works in (`project` is that folder too); its tool calls name it. */
  worktree?: string;
  /** The workflow step this session runs (`b:development`): its approval requests carry it, so the face asking names it. */
  step?: string;
  /** Tools refused in this session by their server's name for them, each with the reason the model is told (a workflow step: git_commit). */
  withholdTools?: Readonly<Record<string, string>>;
  /** Ask the model for a summary of archived messages. */
  summarizeArchived?: boolean;
  onEvent?: (e: AgentEvent) => void;
  signal?: AbortSignal;
  /** A session log to continue. */
  resume?: string;
  /**
   * Earlier conversation to start from (a stateless caller such as the `erasmus_chat` MCP tool
   * sends it whole): committed after the system prompt, before the task, as real messages.
   */
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** runAgentSession only: called with the session once created; the returned function runs when it ends. */
  onCreated?: (session: AgentSession) => () => void;
  /**
   * runAgentSession only: called once when the model has given its final answer; a message it returns is sent in the
   * same session as the user's follow-up (a workflow step's answer that lacks a part the step requires), and the
   * session's outcome is then that of the follow-up.
   */
  followUp?: (outcome: SessionOutcome) => string | undefined;
}

export interface SessionOutcome {
  sessionId: string;
  logPath: string;
  endedReason: EndReason;
  finalAnswer?: string;
  error?: string;
  usage: Usage;
  turns: number;
}

function isHandle(p: ProviderOverrides | ProviderHandle | undefined): p is ProviderHandle {
  return !!p && typeof (p as ProviderHandle).stream === 'function';
}

const noTools: AgentTools = {
  toolsets: () => [],
  openToolset: async (name) => {
    throw new Error(`no toolset named "${name}"`);
  },
  call: async () => ({ content: 'no tools in this session', isError: true }),
};

/** The session's approvals policy: its own option, `autoApprove: true` (`--yes`), config.yaml's, or `non-destructive`. */
export function effectiveApprovals(o: Pick<AgentSessionOptions, 'approvals' | 'autoApprove'>, config: Pick<AgentConfigFile, 'approvals'>): ApprovalsPolicy {
  return o.approvals ?? (o.autoApprove ? 'unattended' : (config.approvals ?? 'non-destructive'));
}

/**
 * The session's budgets: its own, with config.yaml's `sessionBudgetUsd` when it sets no cost budget.
 * The default applies only where the model's prices are known (a local model without prices costs
 * nothing Erasmus can count, and a budget it cannot count would stop every such session at once).
 */
export function sessionBudgets(own: Budgets | undefined, config: Pick<AgentConfigFile, 'sessionBudgetUsd'>, priced: boolean): Budgets {
  const b = own ?? {};
  return b.maxCostUsd === undefined && config.sessionBudgetUsd !== undefined && priced ? { ...b, maxCostUsd: config.sessionBudgetUsd } : b;
}

/**
 * The `!command` shell lines of xml mode run commands as the runners do, so a session limited to
 * toolsets without `runners` (a design or review step) has none: its limits hold for every way to call.
 */
function shellFor(deps: AgentSessionDeps, o: AgentSessionOptions, sessionId?: string): AgentSessionDeps['shell'] {
  const shell = o.toolsets && !o.toolsets.includes('runners') ? undefined : deps.shell;
  return shell && sessionId ? (command, opts) => shell(command, { ...opts, session: sessionId, ...(o.projectAccess ? { access: o.projectAccess } : {}) }) : shell;
}

/** One agent session: its log, context and approvals; `run` a task, `send` follow-ups, `stop`. */
export class AgentSession {
  readonly broker = new ApprovalBroker();
  private running: Promise<SessionOutcome> | undefined;
  private controller = new AbortController();
  project: string | undefined;
  private approvalSeq = 0;
  private steerSeq = 0;
  /** User turns so far (the task and each follow-up), in this log and those it was resumed from. */
  private userTurns = 0;
  private readonly listeners = new Set<(e: AgentEvent) => void>();

  private constructor(
    readonly sessionId: string,
    readonly log: SessionLog,
    readonly provider: ProviderHandle,
    private readonly state: LoopState,
    private readonly deps: AgentSessionDeps,
    private readonly opts: AgentSessionOptions,
    readonly toolMode: 'native' | 'xml',
    private readonly policy: ToolPolicy,
  ) {
    if (opts.onEvent) this.listeners.add(opts.onEvent);
  }

  /** The caller's signal stops a running task; its listener lives as long as the task (a long run's signal outlives many sessions). */
  private readonly onOuterAbort = () => this.stop();

  get logPath(): string {
    return this.log.path;
  }
  get isRunning(): boolean {
    return this.running !== undefined;
  }
  get messages(): ChatMessage[] {
    return this.state.messages.map((m) => m.message);
  }

  /** Who answers this session's approvals; each request names the workflow step asking, if any. */
  private get approvals(): ApprovalRequester {
    const base = this.deps.approvals ?? this.broker.requester;
    const step = this.opts.step;
    return step ? (req, signal) => base({ ...req, step }, signal) : base;
  }

  onEvent(fn: (e: AgentEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Creates (or resumes) a session. Throws with a clear message on bad configuration. */
  static async create(deps: AgentSessionDeps, o: AgentSessionOptions): Promise<AgentSession> {
    const clock = deps.clock ?? Date.now;
    // A step that must not write gets tools that cannot (the files writers left out, the runners' commands read-only).
    if (o.worktree) deps = { ...deps, tools: worktreeTools(deps.tools ?? noTools, o.worktree) };
    // A step of a run describes the run's toolsets and may call only its own (runToolsets).
    const scope: StepScope = { ...(o.projectAccess ? { access: o.projectAccess } : {}), ...(o.runToolsets ? { runToolsets: o.runToolsets, ...(o.toolsets ? { toolsets: o.toolsets } : {}) } : {}) };
    if (scope.runToolsets || (scope.access && scope.access !== 'write')) deps = { ...deps, tools: stepTools(deps.tools ?? noTools, scope) };
    const tools = deps.tools ?? noTools;
    const restored = o.resume ? restoreContext(resolve(o.resume)) : undefined;
    const configFile = deps.configFile ?? deps.paths.configYaml;
    // With a ready provider handle, a config file that does not load only loses its defaults.
    const config: AgentConfigFile = isHandle(o.provider) ? await loadAgentConfig(configFile).catch(() => ({ providers: [] })) : await loadAgentConfig(configFile);
    const provider = isHandle(o.provider) ? o.provider : await resolveProvider(config, { provider: restored?.header.provider, model: restored?.header.model, ...o.provider }, deps.sources);
    const wanted = o.toolMode ?? restored?.header.toolMode ?? config.toolMode ?? 'auto';
    const toolMode: 'native' | 'xml' = wanted === 'auto' ? (provider.supportsNativeTools || !deps.xml ? 'native' : 'xml') : wanted;
    if (toolMode === 'xml' && !deps.xml) throw new Error('xml tool-call mode is not available (no XML parser); use --tool-mode native');
    const project = o.project ? resolve(o.project) : restored?.header.project;
    const sessionId = restored?.header.sessionId ?? newSessionId(clock());
    const log = new SessionLog(restored ? resolve(o.resume!) : deps.paths.session(sessionId), { clock, repairTornTail: true, redact: deps.redact });
    if (restored) log.continueAfter(restored.entryCount);
    const state: LoopState = { messages: restored ? restored.messages : [], active: new Map(), openedToolsets: new Set(), usage: emptyUsage(provider.pricing), turns: 0, allowedToolsets: o.runToolsets ?? o.toolsets };
    const approvals = effectiveApprovals(o, config);
    const policy = new ToolPolicy({ autoApprove: approvals === 'unattended', askAll: approvals === 'ask', classifyCommand: deps.classifyCommand, cwd: project, ...(o.withholdTools ? { withhold: o.withholdTools } : {}) });
    const session = new AgentSession(sessionId, log, provider, state, deps, { ...o, autoApprove: approvals === 'unattended', budgets: sessionBudgets(o.budgets, config, provider.pricing !== undefined) }, toolMode, policy);
    session.project = project;
    if (restored) session.userTurns = restored.userTurns;
    if (!restored) log.append({ type: 'header', sessionId, provider: provider.id, model: provider.model, toolMode, ...(project ? { project } : {}) });
    session.emit({ type: 'session_started', logPath: log.path, provider: provider.id, model: provider.model, ...(provider.providerName ? { providerName: provider.providerName } : {}), ...(provider.modelName ? { modelName: provider.modelName } : {}), toolMode, resumed: !!restored, ...(project ? { project } : {}) });
    for (const w of restored?.warnings ?? []) session.emit({ type: 'warning', message: w });
    const toOpen = [...new Set([...(restored?.openedToolsets ?? []), ...(o.runToolsets ?? []), ...(o.openToolsets ?? [])])];
    for (const name of toOpen) {
      try {
        await openToolsetInto(state, tools, name);
        if (!restored?.openedToolsets.includes(name)) log.append({ type: 'toolset', name });
      } catch (err) {
        session.emit({ type: 'warning', message: `could not open toolset "${name}": ${(err as Error).message}` });
      }
    }
    if (!restored) {
      const offered = o.runToolsets ?? o.toolsets;
      const rank = (name: string) => (o.runToolsets ? o.runToolsets.indexOf(name) : 0);
      const summaries = (await tools.toolsets()).filter((t) => !offered || offered.includes(t.name)).sort((a, b) => rank(a.name) - rank(b.name));
      // `!` lines are described where the run has the runners (the same text in every step), and run where this step has them.
      const shellHere = !!shellFor(deps, o);
      const shellListed = o.runToolsets ? !!deps.shell && o.runToolsets.includes('runners') : shellHere;
      const stepSection = stepToolsSection(scope, [...state.active.values()], { shellListed: toolMode === 'xml' && shellListed, shellHere, ...(o.withholdTools ? { withheld: o.withholdTools } : {}) });
      const system = assembleSystemPrompt({
        staticSections: await loadStaticSections(resourcesDir() + '/prompts', deps.paths.promptsDir),
        dynamicSections: dynamicSections({ cwd: project, now: clock() }),
        protocolPrompt: o.protocolPrompt,
        ...(o.sharedSections ? { sharedSections: o.sharedSections } : {}),
        extraSections: [...(stepSection ? [stepSection] : []), ...(o.sections ?? [])],
        toolsets: summaries,
        toolMode,
        openedToolsets: [...state.openedToolsets],
        shell: shellListed,
        xmlToolUse:
          toolMode === 'xml' && deps.xml
            ? deps.xml.formatToolUse(
                [...state.active.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
                { exampleToolset: summaries.find((t) => !state.openedToolsets.has(t.name))?.name, shell: shellListed },
              )
            : undefined,
      });
      session.commitMessage({ role: 'system', content: system });
      for (const m of o.history ?? []) session.commitMessage({ role: m.role, content: m.content });
    }
    return session;
  }

  private emit(e: LoopEvent): void {
    const full = { ...e, sessionId: this.sessionId, at: (this.deps.clock ?? Date.now)() } as AgentEvent;
    this.log.append({ type: 'event', event: full });
    for (const l of [...this.listeners]) {
      try {
        l(full);
      } catch {
        // A failing listener must not stop the session.
      }
    }
  }

  private commitMessage(message: ChatMessage): void {
    const entry = this.log.append({ type: 'message', message });
    this.state.messages.push({ id: entry.id, message });
  }

  /** Runs the loop on a new user message (the task, or a follow-up). One run at a time. */
  run(userMessage: string): Promise<SessionOutcome> {
    if (this.running) return Promise.reject(new Error(`session ${this.sessionId} is already running a task`));
    if (this.controller.signal.aborted) this.controller = new AbortController();
    const turn = ++this.userTurns;
    const before = this.deps.beforeTurn
      ? this.deps.beforeTurn({ sessionId: this.sessionId, project: this.project, turn, logPath: this.log.path, entries: this.log.entries }).catch((err: Error) => this.emit({ type: 'warning', message: `checkpoint before turn ${turn}: ${err.message}` }))
      : Promise.resolve();
    this.running = before.then(() => this.loop(userMessage));
    return this.running;
  }

  private loop(userMessage: string): Promise<SessionOutcome> {
    this.commitMessage({ role: 'user', content: userMessage, instruction: true });
    this.opts.signal?.addEventListener('abort', this.onOuterAbort, { once: true });
    const deps = this.deps;
    const archivePath = deps.paths.archive(this.sessionId);
    return runAgentLoop(
      {
        stream: this.provider.stream,
        model: this.provider,
        toolMode: this.toolMode,
        xml: deps.xml,
        tools: deps.tools ?? noTools,
        policy: this.policy,
        approvals: this.approvals,
        shell: shellFor(deps, this.opts, this.sessionId),
        cwd: this.project,
        commit: (e) => this.log.append(e).id,
        archive: (entries: ContextEntry[]) => {
          mkdirSync(dirname(archivePath), { recursive: true });
          const at = (deps.clock ?? Date.now)();
          const redact = this.deps.redact ?? ((t: string) => t);
          appendFileSync(archivePath, redact(entries.map((e) => JSON.stringify({ v: 1, sessionId: this.sessionId, id: e.id, archivedAt: at, message: e.message }) + '\n').join('')));
          return archivePath;
        },
        keepWhole: (callId, text) => {
          const file = join(deps.paths.outputsDir, `${this.sessionId}-${callId.replace(/[^A-Za-z0-9_-]+/g, '_')}.txt`);
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, (this.deps.redact ?? ((t: string) => t))(text));
          return basename(file);
        },
        // Only this session's kept outputs (another session's are not this model's to read).
        readKept: (name) => {
          if (!KEPT_NAME.test(name) || !name.startsWith(`${this.sessionId}-`)) return undefined;
          try {
            return readFileSync(join(deps.paths.outputsDir, name), 'utf8');
          } catch {
            return undefined;
          }
        },
        summarize: this.opts.summarizeArchived ? summarizer(this.provider) : undefined,
        emit: (e) => this.emit(e),
        clock: deps.clock ?? Date.now,
        budgets: this.opts.budgets ?? {},
        signal: this.controller.signal,
        stoppedWhy: () => this.stoppedWhy,
      },
      this.state,
    ).then((r) => {
      this.opts.signal?.removeEventListener('abort', this.onOuterAbort);
      // The session ended before the model's next turn (stopped, an error, a budget): what waited was never read.
      for (const q of this.state.queued?.splice(0) ?? []) this.emit({ type: 'steer', id: q.id, text: q.text, state: 'dropped' });
      this.emit({ type: 'session_ended', reason: r.reason, usage: this.state.usage, turns: this.state.turns });
      this.running = undefined;
      return { sessionId: this.sessionId, logPath: this.log.path, endedReason: r.reason, finalAnswer: r.finalAnswer, error: r.error, usage: this.state.usage, turns: this.state.turns };
    });
  }

  /**
   * A message the user sends while the session works (steering): queued, and delivered to the model at
   * its next turn, after the current tool results (`steer` events say which). Throws when the session is
   * not working: then the message is a follow-up (`run`).
   */
  steer(text: string): string {
    if (!this.running) throw new Error(`session ${this.sessionId} is not working on a task; send the message as a follow-up`);
    const id = `q${++this.steerSeq}`;
    (this.state.queued ??= []).push({ id, text });
    this.emit({ type: 'steer', id, text, state: 'queued' });
    return id;
  }

  /** Asks for an approval outside a tool call (e.g. MCP sampling): emits approval_required/resolved. */
  async requestApproval(req: Omit<Parameters<ApprovalRequester>[0], 'requestId'>, signal: AbortSignal): Promise<'allow_once' | 'always_allow' | 'deny'> {
    if (this.opts.autoApprove) return 'allow_once';
    const requestId = `ap-${req.kind}-${++this.approvalSeq}`;
    this.emit({ type: 'approval_required', requestId, ...req });
    let answer: 'allow_once' | 'always_allow' | 'deny';
    try {
      answer = await this.approvals({ requestId, ...req }, signal);
    } catch (err) {
      if (!(err instanceof UnansweredApproval)) throw err;
      answer = 'deny';
    }
    this.emit({ type: 'approval_resolved', requestId, decision: answer });
    return answer;
  }

  approve(requestId: string, decision: Parameters<ApprovalBroker['answer']>[1]): boolean {
    return this.broker.answer(requestId, decision);
  }

  stop(): void {
    this.controller.abort();
  }

  /** What the session's end says when it is stopped: a stop is the user's; a close while it works is Erasmus shutting down. */
  private stoppedWhy = 'stopped by the user';

  /** Waits for the current run, then closes the log. Closing a session that works (Erasmus shuts down) stops it, saying so. */
  async close(): Promise<void> {
    if (!this.controller.signal.aborted) this.stoppedWhy = SHUT_DOWN;
    this.stop();
    await this.running?.catch(() => undefined);
    this.log.close();
  }
}

/** A session's end when Erasmus shut down while it worked (`erasmus serve` restarted, the app quit): the chat can go on. */
export const SHUT_DOWN = 'Erasmus was shut down while the session worked; send a message to go on';

/**
 * Runs one agent session to its end (for the workflow and the CLI). Never throws: a configuration
 * error is an `error` event and `endedReason: 'error'`.
 */
export async function runAgentSession(deps: AgentSessionDeps, o: AgentSessionOptions): Promise<SessionOutcome> {
  let session: AgentSession;
  try {
    session = await AgentSession.create(deps, o);
  } catch (err) {
    const message = (err as Error).message;
    const at = (deps.clock ?? Date.now)();
    o.onEvent?.({ type: 'error', code: 'config', message, sessionId: '', at });
    return { sessionId: '', logPath: '', endedReason: 'error', error: message, usage: emptyUsage(), turns: 0 };
  }
  const release = o.onCreated?.(session);
  try {
    const outcome = await session.run(o.task);
    const more = outcome.endedReason === 'complete' && !o.signal?.aborted ? o.followUp?.(outcome) : undefined;
    return more ? await session.run(more) : outcome;
  } finally {
    release?.();
    session.log.close();
  }
}
