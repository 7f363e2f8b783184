import { ApprovalGrants } from '../project/approval-grants';
import { registerCheckpointHandlers } from './handlers/checkpoints';
import { ChatCheckpoints } from '../checkpoints/chat';
import { CheckpointStore } from '../checkpoints/store';
import { DisposableStore } from '../common/lifecycle';
import { Paths } from '../paths/index';
import { Redactor, SecretStore, type KeychainBackend } from '../secrets/index';
import { bindPipe } from './connection';
import { Dispatcher, type CallContext } from './dispatcher';
import { EventBus } from './events';
import type { Pipe } from '../../contract/index';
import { registerAppHandlers } from './handlers/app';
import { registerSecretsHandlers } from './handlers/secrets';
import { registerProjectHandlers } from './handlers/project';
import { registerUiHandlers } from './handlers/ui';
import { registerSettingsHandlers } from './handlers/settings';
import { registerSessionsHandlers } from './handlers/sessions';
import { McpHub } from '../mcp/hub';
import { registerMcpHandlers } from './handlers/mcp';
import { PtyManager } from '../runners/pty/index';
import { CommandRunner } from '../runners/runner';
import { runGate } from '../workflow/gate';
import { registerTerminalHandlers } from './handlers/terminal';
import { AgentService } from '../agent/service';
import { unanswered } from '../agent/approval-path';
import { registerAgentHandlers } from './handlers/agent';
import { AgentExecutor, WorkflowEngine } from '../workflow/index';
import { registerWorkflowHandlers } from './handlers/workflow';

export type Face = CallContext['face'];

export interface CoreOptions {
  /** ERASMUS_HOME; defaults to the environment or ~/.erasmus. */
  home?: string;
  face: Face;
  version?: string;
  /** Another keychain backend (tests of callers); the default is keytar. */
  keychain?: KeychainBackend;
  env?: NodeJS.ProcessEnv;
  /** What the face can do for the core (desktop: native dialogs, tray notifications). */
  host?: HostServices;
}

/**
 * Services a face offers the core. The core never imports a face; the face hands these in.
 * Missing ones mean the face cannot do it (browser mode has no native folder dialog).
 */
export interface HostServices {
  /** A native "Open folder" dialog; resolves to the chosen absolute path, or null if cancelled. */
  chooseFolder?(): Promise<string | null>;
  /** Opens a remote MCP server's OAuth sign-in page (desktop: the system browser). Without it the page is a link in the server's status. */
  openAuthorization?(server: string, url: string): Promise<void>;
}

/**
 * The core: everything that matters, in plain Node, one instance per face (desktop, serve, CLI).
 * Parts register their handlers on the dispatcher and their resources on `disposables`.
 */
export class Core {
  readonly paths: Paths;
  readonly redactor = new Redactor();
  /** Every event passes the redactor: no face, session log or CLI output sees a secret's value. */
  readonly bus = new EventBus((v) => this.redactor.redactValue(v));
  readonly dispatcher = new Dispatcher();
  readonly secrets: SecretStore;
  readonly disposables = new DisposableStore();
  readonly face: Face;
  readonly version: string;
  readonly env: NodeJS.ProcessEnv;
  readonly host: HostServices;
  /** The MCP hub; faces call `hub.start()` (see electron/main/mcp/README.md). */
  readonly hub: McpHub;
  /** Every PTY: runner commands and shell tabs, streamed as `terminal.*` events. */
  readonly ptys: PtyManager;
  /** The one runner for everything that executes code on the model's behalf (runner tools, `!` lines, test gates). */
  readonly runner: CommandRunner;
  /** Agent sessions (electron/main/agent/README.md); `agent.run(options)` runs one to its end. */
  readonly agent: AgentService;
  /** Workflow runs (electron/main/workflow): documents, plan, FSM, cognitive-engine API. */
  readonly workflow: WorkflowEngine;
  /** Checkpoints of every project (electron/main/checkpoints): before each workflow step and chat turn. */
  readonly checkpoints: CheckpointStore;
  /** What the user always allows on the built-in servers' approval cards, per run and per project. */
  readonly approvalGrants: ApprovalGrants;
  readonly chatCheckpoints: ChatCheckpoints;
  /**
   * Erasmus's own toolsets (files, runners) once a face attached them (servers/builtin.ts): `setRoot` resolves
   * when both serve that folder. Opening a project waits for it, so a step that starts right after (a resume
   * just after a restart) finds them.
   */
  builtins?: { setRoot(root: string): Promise<void> };

  constructor(options: CoreOptions) {
    this.paths = new Paths(options.home);
    this.face = options.face;
    this.version = options.version ?? '0.1.0';
    this.env = options.env ?? process.env;
    this.host = options.host ?? {};
    this.secrets = new SecretStore(this.redactor, options.keychain);
    registerAppHandlers(this);
    registerSecretsHandlers(this);
    registerProjectHandlers(this);
    registerUiHandlers(this);
    registerSettingsHandlers(this);
    registerSessionsHandlers(this);
    // Flow control from the first acknowledgement: only where a view renders (never in the headless CLI).
    this.ptys = this.disposables.add(new PtyManager({ outputsDir: this.paths.outputsDir, sink: this.bus, env: this.env, flowControl: 'auto', redactor: this.redactor }));
    this.runner = this.disposables.add(new CommandRunner(this.ptys, { erasmusHome: this.paths.home, ...(this.env.HOME ? { home: this.env.HOME } : {}) }));
    registerTerminalHandlers(this);
    this.hub = this.disposables.add(new McpHub({
        paths: this.paths,
        bus: this.bus,
        secrets: this.secrets,
        env: this.env,
        version: this.version,
        redactor: this.redactor,
        openAuthorization: (server, url) => this.host.openAuthorization?.(server, url),
      }));
    this.approvalGrants = new ApprovalGrants(this.paths.approvalGrantsFile, (project, runId) => this.paths.runGrants(project, runId));
    registerMcpHandlers(this);
    this.checkpoints = new CheckpointStore(this.paths);
    this.chatCheckpoints = new ChatCheckpoints(this.checkpoints, this.paths);
    this.agent = new AgentService({ paths: this.paths, secrets: this.secrets, env: this.env, hub: this.hub, runner: this.runner, redact: (t) => this.redactor.redact(t), emit: (e) => this.bus.emit('agent.event', e), beforeTurn: (t) => this.chatCheckpoints.beforeTurn(t) });
    this.disposables.defer(() => this.agent.dispose());
    registerAgentHandlers(this);
    registerCheckpointHandlers(this);
    this.workflow = new WorkflowEngine({
      paths: this.paths,
      checkpoints: this.checkpoints,
      env: this.env,
      emit: (event, payload) => this.bus.emit(event, payload),
      // The test gates and the run's commits (the repository's hooks) run through the one runner: sandboxed, visible in the terminal view.
      runTests: (command, cwd, signal, options) => runGate(this.runner, command, cwd, signal, options),
      agentExecutor: (c) =>
        new AgentExecutor((o) => this.agent.run(o), {
          autoApprove: c.autoApprove,
          toolMode: c.toolMode,
          provider: { provider: c.provider, model: c.model, baseUrl: c.baseUrl },
          availableToolsets: () => this.hub.toolsets().map((t) => t.name),
        }),
      // A durable run's workers ask here what their steps need approved, and their sessions' events show here.
      durableGate: {
        approval: ({ sessionId, ...req }, signal) => this.agent.approveElsewhere(req, signal, sessionId ?? `worker:${req.step ?? 'step'}`),
        elicitation: (req, signal) => this.hub.elicitationHandler?.(req, signal) ?? Promise.resolve(unanswered('no face of this process answers the servers\' questions')),
        agentEvent: (e) => this.agent.elsewhereEvent(e),
      },
    });
    this.disposables.defer(() => this.workflow.dispose());
    registerWorkflowHandlers(this);
  }

  /** Binds a pipe (IPC channel or WebSocket) to this core until either side closes. */
  connect(pipe: Pipe, face: Face = this.face): () => void {
    const unbind = bindPipe(pipe, this.dispatcher, this.bus, { face });
    this.disposables.defer(unbind);
    return unbind;
  }

  async dispose(): Promise<void> {
    await this.disposables.dispose();
  }
}

export async function createCore(options: CoreOptions): Promise<Core> {
  return new Core(options);
}
