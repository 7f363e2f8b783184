import type { AgentEvent } from '../../contract/index';
import { callNotRun, toolVerb, whyNotRun } from '../../contract/words';
import { RUNNER_DOING } from '../../servers/runners/execute';

/**
 * What a person watching `erasmus workflow` sees of each step's agent session: one line per tool call
 * in words (`files: wrote src/cli.py`, `runners: python -m pytest → exit 0 (2.1 s)`), and "waiting for
 * the model…" with the time elapsed while a request takes long. Session ids and tool names with their
 * server prefix stay out of it (`--json` prints the raw events).
 */

const one = (s: string, n = 100) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** The first line of a refusal or failure, for the model's words shortened to the user's one line. */
const why = (result: string): string => one(whyNotRun(result), 140);

/** One tool call, finished, in words. */
export function toolLine(e: Extract<AgentEvent, { type: 'tool_complete' }>): string {
  const at = e.name.indexOf('__');
  // A `!` line in the model's text runs through the runner too: shown as the shell's command.
  const server = e.name === '!' ? 'shell' : at > 0 ? e.name.slice(0, at) : e.name;
  const tool = at > 0 ? e.name.slice(at + 2) : '';
  const a = e.args;
  let what: string;
  if (server === 'files') {
    const path = str(a.path) ?? '.';
    const not = e.isError || e.refused;
    if (tool === 'move') what = `${not ? 'move' : 'moved'} ${str(a.from)} → ${str(a.to)}`;
    else if (tool === 'rename') what = `${not ? 'rename' : 'renamed'} ${path} → ${str(a.name)}`;
    else if (tool === 'search') what = `searched ${path}${a.name ? ` for files named ${str(a.name)}` : ''}${a.contains ? ` for "${one(String(a.contains), 40)}"` : ''}`;
    else what = `${toolVerb(tool, !not)?.toLowerCase() ?? tool.replace(/_/g, ' ')} ${path}`;
  } else if (server === 'runners' || server === 'shell') {
    // The runners answer "$ <command>" then "[exit code N]" (or why it did not run).
    // A script reads as what it is for (its first line alone, `set -e`, says nothing), as while it runs.
    const script = typeof a.script === 'string' ? runningWhat(e.name, a).slice(server.length + 2) : undefined;
    const command = script ?? /^\$ (.*)$/m.exec(e.result)?.[1] ?? str(a.command) ?? tool.replace(/_/g, ' ');
    const exit = /^\[(exit code (-?\d+)|[^\]\n]+)\]$/m.exec(e.result);
    what = `${one(command, 80)}${exit ? ` → ${exit[2] !== undefined ? `exit ${exit[2]}` : exit[1]}` : ''}`;
  } else {
    what = tool ? tool.replace(/_/g, ' ') : e.name;
  }
  // Refused by the approval path, or not run by the server itself (a command declined, or nobody could be asked: "$ cmd\nNot run: …").
  const notRun = callNotRun(e);
  const tail = notRun ? ` — not run: ${why(e.result)}` : e.isError && server !== 'runners' && server !== 'shell' ? ` — failed: ${why(e.result)}` : '';
  return `    ${server}: ${what}${(server === 'runners' || server === 'shell') && !notRun ? ` (${secs(e.durationMs)})` : ''}${tail}`;
}

/** How long a request (or a tool call) runs before the watcher says it waits for it, and how often it says so again. */
const FIRST_NOTE_MS = 8_000;
const AGAIN_MS = 30_000;

/** A tool call while it runs, in words: its server and what it runs (`runners: npm test`, `runners: bash script (prepare the build)`). */
export function runningWhat(name: string, args: Record<string, unknown>): string {
  const at = name.indexOf('__');
  const server = name === '!' ? 'shell' : at > 0 ? name.slice(0, at) : name;
  const tool = at > 0 ? name.slice(at + 2) : '';
  const purpose = str(args.purpose);
  const command = str(args.command);
  let what: string;
  if (command) what = one(command.split('\n')[0]!, 80);
  else if (typeof args.script === 'string') what = `${tool === 'bash_script' ? 'bash script' : tool.replace(/_/g, ' ')}${purpose ? ` (${one(purpose, 60)})` : ''}`;
  else if (server === 'files') what = `${tool.replace(/_/g, ' ')} ${str(args.path) ?? ''}`.trim();
  else what = tool ? tool.replace(/_/g, ' ') : name;
  return `${server}: ${what}`;
}

/**
 * Renders agent events as the user's lines; `write` gets whole lines. Call `dispose` when the run rests.
 * `asking`: whether a question is open on the terminal (a note that a call waits is not said over it: the question says why).
 */
export function agentWatcher(write: (line: string) => void, now: () => number = Date.now, asking: () => boolean = () => false) {
  let timer: NodeJS.Timeout | undefined;
  let since = 0;
  const quiet = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  const wait = (delay: number) => {
    quiet();
    timer = setTimeout(() => {
      write(`    waiting for the model… ${Math.round((now() - since) / 1000)} s`);
      wait(AGAIN_MS);
    }, delay);
    timer.unref?.();
  };
  // Tool calls running (a step's, or several components' at once): what each runs and what it does now (its progress's
  // words: the script reviewer reads it, running), said once it has taken FIRST_NOTE_MS and every AGAIN_MS after, its
  // time counted from when it began doing that; a non-TTY log gets a line every half minute at most per call.
  // `waited`: the call waited for the script reviewer or the user's answer before it ran; its "running" word came the moment
  // the command started, so the command's own time is from then (played as a user: a command approved after a minute
  // read "python3 -c '…' → exit 0 (62.1 s)", the wait for the answer counted as its run).
  const calls = new Map<string, { what: string; doing?: string; since: number; waited?: boolean; timer?: NodeJS.Timeout }>();
  const note = (key: string, delay: number) => {
    const c = calls.get(key);
    if (!c) return;
    if (c.timer) clearTimeout(c.timer);
    c.timer = setTimeout(() => {
      if (!asking()) write(`    ${c.what} — ${c.doing ? `${c.doing}, ` : ''}${Math.round((now() - c.since) / 1000)} s so far`);
      note(key, AGAIN_MS);
    }, delay);
    c.timer.unref?.();
  };
  const done = (key: string) => {
    const c = calls.get(key);
    if (c?.timer) clearTimeout(c.timer);
    calls.delete(key);
  };
  return {
    onEvent(e: AgentEvent): void {
      switch (e.type) {
        case 'turn_started':
          since = now();
          wait(FIRST_NOTE_MS);
          break;
        case 'tool_running': {
          quiet();
          const key = `${e.sessionId}\0${e.callId}`;
          done(key);
          calls.set(key, { what: runningWhat(e.name, e.args), since: now() });
          note(key, FIRST_NOTE_MS);
          break;
        }
        case 'tool_progress': {
          const key = `${e.sessionId}\0${e.callId}`;
          const c = calls.get(key);
          // "still running" is the keep-alive's word for nothing new.
          if (!c || !e.message || e.message === 'still running' || e.message === c.doing) break;
          if (c.doing === RUNNER_DOING.review || c.doing === RUNNER_DOING.approval) c.waited = true;
          c.doing = e.message;
          c.since = now();
          note(key, FIRST_NOTE_MS);
          break;
        }
        case 'tool_complete': {
          const c = calls.get(`${e.sessionId}\0${e.callId}`);
          done(`${e.sessionId}\0${e.callId}`);
          write(toolLine(c?.waited && c.doing === RUNNER_DOING.running ? { ...e, durationMs: now() - c.since } : e));
          break;
        }
        case 'approval_required':
          quiet();
          break;
        case 'warning':
          write(`    warning: ${one(e.message, 200)}`);
          break;
        case 'error':
          quiet();
          for (const key of [...calls.keys()]) if (key.startsWith(`${e.sessionId}\0`)) done(key);
          // Stopping is not a failure: the user (or Erasmus, pausing) ended the session, and the run says how to go on.
          write(e.code === 'stopped' ? '    the model\'s session was stopped' : `    the model's session failed: ${one(e.message, 200)}`);
          break;
        case 'session_ended':
          quiet();
          for (const key of [...calls.keys()]) if (key.startsWith(`${e.sessionId}\0`)) done(key);
          break;
        case 'sentence':
        case 'reasoning':
        case 'complete':
          quiet();
          break;
        default:
          break;
      }
    },
    dispose(): void {
      quiet();
      for (const key of [...calls.keys()]) done(key);
    },
  };
}
