import { homedir } from 'node:os';
import type { AgentEvent, ApprovalDecision } from '../../contract/index';
import type { McpHub } from '../mcp/hub';
import type { CommandRunner } from '../runners/runner';
import type { Paths } from '../paths/index';
import { classifyCommand } from '../runners/policy/index';
import type { SecretStore } from '../secrets/index';
import { ApprovalBroker, type ApprovalRequest, type ApprovalRequester } from './approvals';
import { hubTools } from './hub-tools';
import { samplingHandler } from './sampling';
import { AgentSession, runAgentSession, type AgentSessionDeps, type AgentSessionOptions, type SessionOutcome } from './session';
import { xmlSupport } from './xml-adapter';
import type { ShellRunner } from './tools';
import { loadAgentConfig, resolveProvider, type ProviderOverrides } from './providers/config';
import type { ProviderHandle } from './providers/types';

/**
 * `!command` through the one runner (runners/runner.ts): the same OS sandbox as the runner tools
 * (the project writable, the rest read-only, credentials hidden, no network), the session's TMPDIR,
 * a PTY in the terminal view. The model gets the output, the exit status and what the sandbox refused.
 */
export function runnerShell(runner: Pick<CommandRunner, 'run' | 'status'>): ShellRunner {
  return async (command, { signal, cwd, session, access }) => {
    const root = cwd ?? process.cwd();
    if (access && access !== 'write' && !runner.status.enabled) {
      // Nothing can mount the project read-only without a sandbox: only what the policy knows to be read-only runs.
      const c = await classifyCommand(command, { home: homedir(), cwd: root, root });
      if (c.verdict !== 'run') return { content: `$ ${command}\nNot run: this step only reads the project, and commands run without a sandbox here (${runner.status.detail}), so only commands known to be read-only run. Report what should be run instead.`, isError: true };
    }
    const r = await runner.run({ command, root, signal, title: `! ${command}`, ...(session ? { session } : {}), ...(access ? { access } : {}) });
    const status = r.timedOut ? 'timed out' : r.aborted ? 'stopped' : r.exitCode === null ? `ended by signal ${r.signal}` : `exit code ${r.exitCode}`;
    const more = r.truncated ? `\n[output cut; the whole output is in ${r.outputFile}]` : '';
    return { content: `$ ${command}\n${r.output}${more}\n[${status}]${r.sandboxNote ? `\n${r.sandboxNote}` : ''}`, isError: r.exitCode !== 0 };
  };
}

export interface AgentServiceDeps {
  paths: Paths;
  secrets: Pick<SecretStore, 'get'> & Partial<Pick<SecretStore, 'learn'>>;
  env: NodeJS.ProcessEnv;
  hub?: Pick<McpHub, 'toolsets' | 'openToolset' | 'callTool' | 'readResource' | 'setSamplingHandler'>;
  /** Runs `!command` lines (the core's one runner: sandboxed, in a PTY visible in the terminal view). */
  runner?: Pick<CommandRunner, 'run' | 'status'>;
  /** Where every event goes (the core's bus as `agent.event`). */
  emit: (e: AgentEvent) => void;
  /** Masks secrets in what a session writes to disk (the core's redactor). */
  redact?: (text: string) => string;
  /** A checkpoint before every user turn of the sessions this service keeps (chats; a workflow step has the run's). */
  beforeTurn?: AgentSessionDeps['beforeTurn'];
}

/**
 * The agent part of the core: builds sessions from the core's parts (hub, secrets, command policy,
 * XML parser), keeps the running ones, and routes approvals and MCP sampling to them.
 */
export class AgentService {
  private readonly sessions = new Map<string, AgentSession>();
  /** The provider of the session started last: helper calls (script review) use the session's model. */
  private latest: ProviderHandle | undefined;

  /** Who answers approvals of sessions that bring no requester of their own (a CLI's approval path); default: each session's broker. */
  private approvals: ApprovalRequester | undefined;

  constructor(private readonly d: AgentServiceDeps) {}

  /** Sets the face's approval path for sessions run without their own (e.g. `erasmus workflow`'s steps). */
  setApprovals(approvals: ApprovalRequester | undefined): void {
    this.approvals = approvals;
  }

  /** Session dependencies from the core; `extra` overrides (e.g. an approval prompt in the CLI). */
  sessionDeps(extra: Partial<AgentSessionDeps> = {}): AgentSessionDeps {
    return {
      paths: this.d.paths,
      sources: { env: this.d.env, secret: (name) => this.d.secrets.get(name), credentialFromEnv: (name, value) => this.d.secrets.learn?.(`env:${name}`, value) },
      tools: this.d.hub ? hubTools(this.d.hub) : undefined,
      // `!` lines are judged as the runner tools judge theirs: knowing whether the sandbox confines them.
      classifyCommand: (command, { cwd }) => classifyCommand(command, { home: homedir(), cwd: cwd ?? process.cwd(), sandboxed: this.d.runner?.status.enabled === true }),
      xml: xmlSupport({ shell: !!this.d.runner }),
      shell: this.d.runner ? runnerShell(this.d.runner) : undefined,
      redact: this.d.redact,
      ...(this.approvals ? { approvals: this.approvals } : {}),
      ...extra,
    };
  }

  /** The configured model (config.yaml's default provider, or `over`), for one-shot calls such as script review. */
  async provider(over: ProviderOverrides = {}, configFile?: string): Promise<ProviderHandle> {
    const deps = this.sessionDeps();
    return resolveProvider(await loadAgentConfig(configFile ?? this.d.paths.configYaml), over, deps.sources);
  }

  /**
   * The model for helper calls made on a session's behalf (script review of its commands): the
   * provider of the session started last, however it was given (command line, config, a handle);
   * with no session yet, config.yaml's default.
   */
  async helperProvider(configFile?: string): Promise<ProviderHandle> {
    return this.latest ?? this.provider({}, configFile);
  }

  /** Runs one session to its end (the workflow's entry point). Never throws. */
  async run(options: AgentSessionOptions, extra: Partial<AgentSessionDeps> = {}): Promise<SessionOutcome> {
    // Kept while it runs, so agent.approve / agent.stop reach it (e.g. a workflow step's approvals).
    return runAgentSession(this.sessionDeps(extra), {
      ...options,
      onEvent: (e) => this.forward(e, options.onEvent),
      onCreated: (session) => {
        this.latest = session.provider;
        this.sessions.set(session.sessionId, session);
        return () => this.sessions.delete(session.sessionId);
      },
    });
  }

  /** Creates a session kept by the service (for agent.start / agent.send / agent.approve / agent.stop). */
  async create(options: AgentSessionOptions, extra: Partial<AgentSessionDeps> = {}): Promise<AgentSession> {
    const session = await AgentSession.create(this.sessionDeps({ ...(this.d.beforeTurn ? { beforeTurn: this.d.beforeTurn } : {}), ...extra }), { ...options, onEvent: (e) => this.forward(e, options.onEvent) });
    this.sessions.set(session.sessionId, session);
    this.latest = session.provider;
    this.useForSampling(session);
    return session;
  }

  /** MCP sampling requests are answered by this session's model, after approval in this session. */
  useForSampling(session: AgentSession): void {
    let n = 0;
    const approvals: ApprovalRequester = (req, signal) => session.requestApproval({ kind: req.kind, name: req.name, args: req.args, reasons: req.reasons }, signal);
    this.d.hub?.setSamplingHandler(samplingHandler(session.provider, approvals, () => `sampling-${++n}`));
  }

  get(sessionId: string): AgentSession | undefined {
    return this.sessions.get(sessionId);
  }

  /**
   * The sessions this process runs, and those a durable run's worker runs that have started and not ended
   * (their events come through `elsewhereEvent`) or wait for an approval here: a window back from a dropped
   * connection cuts off only what no live process runs.
   */
  list(): { sessionId: string; logPath: string; running: boolean }[] {
    const own = [...this.sessions.values()].map((s) => ({ sessionId: s.sessionId, logPath: s.logPath, running: s.isRunning }));
    const asking = [...this.elsewhereAsking.keys()].filter((id) => !this.elsewhereRunning.has(id)).map((sessionId) => ({ sessionId, logPath: '', running: true }));
    return [...own, ...[...this.elsewhereRunning].map(([sessionId, logPath]) => ({ sessionId, logPath, running: true })), ...asking];
  }

  /** Sessions of other processes (a durable run's workers) that started and have not ended, by id, with their logs. */
  private readonly elsewhereRunning = new Map<string, string>();
  /** Sessions of other processes with approvals waiting here, and how many. */
  private readonly elsewhereAsking = new Map<string, number>();

  /** An event of a session another process runs (a durable run's worker), shown here: followed for `list`, then sent on. */
  elsewhereEvent(e: AgentEvent): void {
    if (e.type === 'session_started') this.elsewhereRunning.set(e.sessionId, e.logPath);
    else if (e.type === 'session_ended') this.elsewhereRunning.delete(e.sessionId);
    this.forward(e);
  }

  approve(sessionId: string, requestId: string, decision: ApprovalDecision): boolean {
    return this.sessions.get(sessionId)?.approve(requestId, decision) ?? this.elsewhere.answer(requestId, decision);
  }

  private readonly elsewhere = new ApprovalBroker();
  private elsewhereSeq = 0;

  /**
   * An approval of a session that runs in another process (a durable run's worker), asked here: through the face's
   * path when it set one (the CLI's terminal, or an immediate refusal), else as a card of `sessionId` that
   * `agent.approve` answers.
   */
  async approveElsewhere(req: Omit<ApprovalRequest, 'requestId'>, signal: AbortSignal, sessionId: string): Promise<ApprovalDecision> {
    const requestId = `elsewhere-${++this.elsewhereSeq}`;
    if (this.approvals) return this.approvals({ ...req, requestId }, signal);
    const { kind, callId, name, args, reasons } = req;
    this.forward({ type: 'approval_required', sessionId, at: Date.now(), requestId, kind, ...(callId ? { callId } : {}), name, args, reasons });
    this.elsewhereAsking.set(sessionId, (this.elsewhereAsking.get(sessionId) ?? 0) + 1);
    const decision = await this.elsewhere.requester({ ...req, requestId }, signal).finally(() => {
      const n = (this.elsewhereAsking.get(sessionId) ?? 1) - 1;
      if (n > 0) this.elsewhereAsking.set(sessionId, n);
      else this.elsewhereAsking.delete(sessionId);
    });
    this.forward({ type: 'approval_resolved', sessionId, at: Date.now(), requestId, decision });
    return decision;
  }

  stop(sessionId: string): boolean {
    const s = this.sessions.get(sessionId);
    s?.stop();
    return !!s;
  }

  async dispose(): Promise<void> {
    this.d.hub?.setSamplingHandler(undefined);
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
    this.sessions.clear();
  }

  private forward(e: AgentEvent, also?: (e: AgentEvent) => void): void {
    try {
      this.d.emit(e);
    } catch {
      // The bus validates; a failing listener must not stop the session.
    }
    also?.(e);
  }
}
