import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join, resolve } from 'node:path';

/** ERASMUS_HOME from the environment, or ~/.erasmus. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ERASMUS_HOME?.trim();
  return resolve(fromEnv ? fromEnv : join(homedir(), '.erasmus'));
}

/** A stable, readable key for a project folder: its name plus a hash of its absolute path. */
export function projectKey(projectPath: string): string {
  const abs = resolve(projectPath);
  const name = basename(abs).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 40) || 'root';
  const hash = createHash('sha256').update(abs).digest('hex').slice(0, 10);
  return `${name}-${hash}`;
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;
function safeId(kind: string, id: string): string {
  if (!SAFE_ID.test(id) || id === '.' || id === '..') throw new Error(`invalid ${kind} id: ${JSON.stringify(id)}`);
  return id;
}

/** The one owner of the layout under ERASMUS_HOME (see ARCHITECTURE.md, "Where data lives"). */
export class Paths {
  readonly home: string;

  constructor(home: string = resolveHome()) {
    this.home = resolve(home);
  }

  get mcpConfig(): string {
    return join(this.home, 'mcp', 'config.json');
  }
  get configYaml(): string {
    return join(this.home, 'config.yaml');
  }
  get promptsDir(): string {
    return join(this.home, 'prompts');
  }
  get sessionsDir(): string {
    return join(this.home, 'sessions');
  }
  get archiveDir(): string {
    return join(this.home, 'archive');
  }
  get logsDir(): string {
    return join(this.home, 'logs');
  }
  get recentProjects(): string {
    return join(this.home, 'recent.json');
  }
  /** Browser mode's last address (`erasmus serve`: its port and token), so a restart serves the same one and open pages reconnect. */
  get serveAddress(): string {
    return join(this.home, 'serve.json');
  }
  /** The window's preferences (theme). */
  get uiSettings(): string {
    return join(this.home, 'ui.json');
  }
  /** Project files (.erasmus/mcp.json, settings.json, protocols) the user trusted, by content hash. */
  get projectTrustFile(): string {
    return join(this.home, 'trust', 'projects.json');
  }
  /** What the user always allows per project on approval cards (project/approval-grants.ts). */
  get approvalGrantsFile(): string {
    return join(this.home, 'trust', 'approvals.json');
  }
  get trustFile(): string {
    return join(this.home, 'mcp', 'trust.json');
  }
  get promptLibraryDir(): string {
    return join(this.home, 'prompt-library');
  }
  /** Unpacked .mcpb bundles (MCP Desktop Extensions), one folder each: mcp/extensions/<name>/. */
  get extensionsDir(): string {
    return join(this.home, 'mcp', 'extensions');
  }
  /** Full outputs of runner commands, kept so the model can read what was truncated. */
  get outputsDir(): string {
    return join(this.home, 'outputs');
  }

  session(id: string): string {
    return join(this.sessionsDir, `${safeId('session', id)}.jsonl`);
  }
  archive(id: string): string {
    return join(this.archiveDir, `${safeId('session', id)}.jsonl`);
  }
  serverLog(serverName: string): string {
    return join(this.logsDir, 'mcp', `${serverName.replace(/[^A-Za-z0-9._-]+/g, '_')}.log`);
  }

  projectContext(projectPath: string): string {
    return join(this.home, 'context', projectKey(projectPath));
  }
  ctxDir(projectPath: string): string {
    return join(this.projectContext(projectPath), 'ctx');
  }
  orchestrationDoc(projectPath: string, doc: 'architecture' | 'progress_schedule' | 'task_list'): string {
    return join(this.ctxDir(projectPath), 'orchestration', `${doc}.md`);
  }
  componentDoc(projectPath: string, component: string): string {
    return join(this.ctxDir(projectPath), 'components', `${safeId('component', component)}.md`);
  }
  /**
   * A review report kept with the context documents (a repository that has no docs folder of its own), per run
   * (`runs/<run>.reviews/<name>.md`), so a later run's review does not replace an earlier one's.
   */
  reviewReport(projectPath: string, runId: string, name: string): string {
    return join(this.runsDir(projectPath), `${safeId('run', runId)}.reviews`, `${safeId('component', name)}.md`);
  }
  /** Where runs before per-run reviews kept them, one file per scope for every run (still read for those runs). */
  sharedReviewReport(projectPath: string, name: string): string {
    return join(this.ctxDir(projectPath), 'reviews', `${safeId('component', name)}.md`);
  }
  runsDir(projectPath: string): string {
    return join(this.projectContext(projectPath), 'runs');
  }
  run(projectPath: string, runId: string): string {
    return join(this.runsDir(projectPath), `${safeId('run', runId)}.json`);
  }
  /** A project's checkpoints: `git/` (the shadow repository whose work tree is the project) and `list/<id>.json`. */
  checkpointsDir(projectPath: string): string {
    return join(this.home, 'checkpoints', projectKey(projectPath));
  }
  /** What the user always allows for this run only (approval cards' "… for this run"); in a folder, as run files are the `.json` ones. */
  runGrants(projectPath: string, runId: string): string {
    return join(this.runsDir(projectPath), `${safeId('run', runId)}.approvals`, 'always-allow.json');
  }
  /** A finished run's pull request (title, then its body in Markdown), ready to copy. */
  runPullRequest(projectPath: string, runId: string): string {
    return join(this.runsDir(projectPath), `${safeId('run', runId)}.pull-request.md`);
  }
  /** The prompt given to step `index` of a run's timeline. */
  runStepPrompt(projectPath: string, runId: string, index: number): string {
    return join(this.runsDir(projectPath), `${safeId('run', runId)}.prompts`, `${index}.md`);
  }
}
export * from './app-root';
