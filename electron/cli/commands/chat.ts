import { resolve } from 'node:path';
import type { Command } from 'commander';
import { attachBuiltinServers } from '../../servers/builtin';
import { ToolMode, type AgentEvent } from '../../contract/index';
import type { AgentSession } from '../../main/agent/session';
import { cliApprovalPath, installApprovalPath } from '../approval-path';
import { allowHostsOf, grantDepsOf } from '../../main/api/grant-deps';
import { cliCore, readStdin } from '../context';
import { ask } from '../prompt';
import { renderEvent } from './chat-render';

interface ChatOptions {
  prompt?: string;
  project?: string;
  config?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKeySecret?: string;
  toolMode?: string;
  yes?: boolean;
  maxTurns?: string;
  maxCost?: string;
  resume?: string;
  rewindTo?: string;
  codeOnly?: boolean;
  conversationOnly?: boolean;
  json?: boolean;
}

const EXIT = { complete: 0, error: 1, budget: 3, stopped: 130 } as const;

function positiveInt(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got ${JSON.stringify(v)}`);
  return n;
}

export function registerChat(program: Command): void {
  program
    .command('chat')
    .description('chat with the agent: one task with -p, or an interactive session; --json prints one event per line')
    .option('-p, --prompt <text>', 'the task (without it: interactive, or the task from piped stdin)')
    .option('--project <dir>', 'the project folder the agent works in (default: the current folder)')
    .option('--config <file>', 'a YAML/JSON file with providers: and mcpServers:/extensions: (instead of ERASMUS_HOME config)')
    .option('--provider <id>', 'provider id from config.yaml (or a kind: openai, anthropic, google, ollama, openai-compatible, openrouter)')
    .option('--model <name>', 'model name')
    .option('--base-url <url>', 'provider base URL (an OpenAI-compatible endpoint when nothing is configured)')
    .option('--api-key-secret <name>', 'keychain secret that holds the API key')
    .option('--tool-mode <mode>', 'tool calls: auto, native or xml (default: config.yaml toolMode, else auto)')
    .option('--yes', 'approve every call the policy does not refuse')
    .option('--max-turns <n>', 'stop after this many model turns')
    .option('--max-cost <usd>', 'stop when the session has cost this many US dollars (cache-aware, at the catalog or config.yaml prices; default: config.yaml sessionBudgetUsd)')
    .option('--resume <log>', 'continue the session in this log file')
    .option('--rewind-to <turn>', 'with --resume: go back to before user turn TURN (1 = the task): the project\'s files and HEAD, and the conversation (a new log that starts there)')
    .option('--code-only', 'with --rewind-to: rewind the files and HEAD only; the conversation goes on in the same log')
    .option('--conversation-only', 'with --rewind-to: rewind the conversation only; the files stay as they are')
    .option('--json', 'print each event as one JSON line on stdout, and nothing else')
    .action(async (o: ChatOptions) => {
      const mode = ToolMode.optional().safeParse(o.toolMode);
      if (!mode.success) throw new Error(`--tool-mode must be auto, native or xml, got ${JSON.stringify(o.toolMode)}`);
      const maxTurns = positiveInt('--max-turns', o.maxTurns);
      const maxCostUsd = o.maxCost === undefined ? undefined : Number(o.maxCost);
      if (maxCostUsd !== undefined && !(maxCostUsd > 0)) throw new Error(`--max-cost must be a positive number of US dollars, got ${JSON.stringify(o.maxCost)}`);
      if (o.json) console.log = console.error; // stdout carries events only
      let task = o.prompt;
      const interactive = task === undefined && process.stdin.isTTY === true;
      if (task === undefined && !interactive) task = (await readStdin()).trim();
      const rewindTurn = positiveInt('--rewind-to', o.rewindTo);
      if (rewindTurn === undefined && (o.codeOnly || o.conversationOnly)) throw new Error('--code-only and --conversation-only go with --rewind-to TURN');
      if (rewindTurn !== undefined && !o.resume) throw new Error('--rewind-to needs --resume LOG: the session whose turn to go back to');
      if (o.codeOnly && o.conversationOnly) throw new Error('--code-only and --conversation-only exclude each other: without either, both are rewound');
      // A rewind alone (no task, no terminal) rewinds and says how to go on.
      const rewindOnly = rewindTurn !== undefined && !interactive && !task;
      if (!interactive && !task && !rewindOnly) throw new Error('no task: pass -p PROMPT, pipe it on stdin, or run in a terminal for an interactive chat');
      const project = resolve(o.project ?? process.cwd());
      const emit = (e: AgentEvent) => (o.json ? process.stdout.write(JSON.stringify(e) + '\n') : renderEvent(e));
      const core = cliCore();
      const path = cliApprovalPath({ yes: o.yes, json: o.json, command: 'erasmus chat', grants: grantDepsOf(core), allowHosts: allowHostsOf(core) });
      let session: AgentSession | undefined;
      const onSigint = () => {
        if (session?.isRunning) session.stop();
        else process.exit(EXIT.stopped);
      };
      process.on('SIGINT', onSigint);
      try {
        if (rewindTurn !== undefined) {
          const r = await core.chatCheckpoints.rewind(o.resume!, rewindTurn, o.codeOnly ? 'code' : o.conversationOnly ? 'conversation' : 'both');
          const what = [o.conversationOnly ? '' : `${r.files.length} file(s) restored, ${r.commitsUndone.length} commit(s) undone`, o.codeOnly ? '' : `the conversation before turn ${rewindTurn} continues in ${r.logPath} (the old log is kept)`].filter(Boolean);
          process.stderr.write(`rewound to before turn ${rewindTurn}: ${what.join('; ')}\n`);
          o.resume = r.logPath;
          if (rewindOnly) {
            process.stderr.write(`go on with: erasmus chat --resume ${r.logPath} -p TEXT\n`);
            return;
          }
        }
        await core.hub.start({ projectDir: project, configFile: o.config ? resolve(o.config) : undefined, watch: false });
        for (const issue of core.hub.configErrors()) process.stderr.write(`erasmus: ${issue.file}${issue.entry ? ` (${issue.entry})` : ''}: ${issue.message}\n`);
        installApprovalPath(core.hub, path);
        await attachBuiltinServers(core, { root: project, configFile: o.config ? resolve(o.config) : undefined });
        try {
          session = await core.agent.create(
            { task: task ?? '', project, provider: { provider: o.provider, model: o.model, baseUrl: o.baseUrl, apiKeySecret: o.apiKeySecret }, toolMode: mode.data, autoApprove: path.autoApprove, budgets: { maxTurns, ...(maxCostUsd !== undefined ? { maxCostUsd } : {}) }, resume: o.resume, onEvent: emit },
            { configFile: o.config ? resolve(o.config) : undefined, approvals: path.approvals },
          );
        } catch (err) {
          const message = (err as Error).message;
          if (o.json) emit({ type: 'error', code: 'config', message, sessionId: '', at: Date.now() });
          throw err;
        }
        if (!interactive) {
          const outcome = await session.run(task!);
          process.exitCode = EXIT[outcome.endedReason];
          return;
        }
        process.stderr.write(`session ${session.sessionId} (${session.provider.id}/${session.provider.model}, ${session.toolMode} tool calls); log: ${session.logPath}\nEmpty line or "exit" to quit.\n`);
        for (;;) {
          // Ctrl-C at the prompt withdraws it (and the SIGINT handler ends the session): a quit, as 130.
          const typed = await ask('\nyou> ').catch(() => undefined);
          if (typed === undefined) {
            process.exitCode = EXIT.stopped;
            break;
          }
          const line = typed.trim();
          if (!line || line === 'exit' || line === 'quit') break;
          const outcome = await session.run(line);
          process.exitCode = EXIT[outcome.endedReason];
        }
      } finally {
        process.off('SIGINT', onSigint);
        await session?.close();
        await core.dispose();
      }
    });
}
