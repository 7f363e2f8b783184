import type { AgentEvent } from '../../contract/index';
import { RUNNER_DOING } from '../../servers/runners/execute';

const short = (s: string, n = 160) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

/** Whether the model's text on stdout stopped mid-line (the next line on stderr starts on a line of its own). */
let midLine = false;

/** Human-readable rendering of the event stream: text on stdout, everything else on stderr. */
export function renderEvent(e: AgentEvent): void {
  const err = (s: string) => {
    if (midLine) {
      process.stdout.write('\n');
      midLine = false;
    }
    process.stderr.write(s);
  };
  switch (e.type) {
    case 'sentence':
      process.stdout.write(e.text);
      if (e.text) midLine = !e.text.endsWith('\n');
      break;
    case 'usage': {
      const t = e.turn;
      const cached = t.cacheReadTokens ? ` (${t.cacheReadTokens} from cache)` : '';
      err(`  · turn: ${t.inputTokens} in${cached}, ${t.outputTokens} out${t.costUsd !== null ? `, $${t.costUsd.toFixed(4)}; session $${(e.session.costUsd ?? 0).toFixed(4)}` : ''}\n`);
      break;
    }
    case 'reasoning':
      err(`  (reasoning: ${short(e.text, 100)})\n`);
      break;
    case 'tool_running':
      err(`\n→ ${e.name} ${short(JSON.stringify(e.args))}\n`);
      break;
    case 'tool_progress':
      // What a call waits for, when it is not plain running or the question that follows (the script review can take a minute).
      if (e.message && e.message !== 'still running' && e.message !== RUNNER_DOING.running && e.message !== RUNNER_DOING.approval) err(`  … ${e.message}\n`);
      break;
    case 'tool_complete':
      err(`${e.refused ? '⊘' : e.isError ? '✗' : '✓'} ${e.name} (${e.durationMs} ms): ${short(e.result)}\n`);
      break;
    case 'toolset_opened':
      err(`  toolset ${e.name} opened: ${e.tools.length} tools\n`);
      break;
    case 'context_archived':
      err(`  (${e.count} old messages moved to ${e.archivePath})\n`);
      break;
    case 'warning':
      err(`warning: ${e.message}\n`);
      break;
    case 'error':
      err(`\nerror (${e.code}): ${e.message}\n`);
      break;
    case 'complete':
      process.stdout.write('\n');
      midLine = false;
      break;
    case 'session_ended':
      err(`[${e.reason}; ${e.turns} turn${e.turns === 1 ? '' : 's'}; ${e.usage.totalTokens} tokens${e.usage.cacheReadTokens ? ` (${e.usage.cacheReadTokens} input from cache)` : ''}${e.usage.costUsd !== null ? `; $${e.usage.costUsd.toFixed(4)}` : ''}]\n`);
      break;
    default:
      break;
  }
}
