import { useRef, useState } from 'react';
import { lastWordsCut } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { formatCost, formatDuration, formatTokens } from '../../ui/format';
import { entryOutcome, humanOutcome, humanState } from '../project/labels';
import type { Block } from './lanes';
import { RewindToHere } from './RewindToHere';

const CHANGE_WORDS = { added: 'added', modified: 'changed', deleted: 'deleted' } as const;

/** The selected step in words: outcome, time, tokens and cost, files touched, test output, commit, its prompt, and a way to its session. */
export function StepDetails({ runId, block, onOpenSession, rewind }: { runId: string; block: Block; onOpenSession: (() => void) | null; rewind?: { running: boolean; onRewound: () => void } }) {
  const e = block.entry;
  return (
    <section aria-label="Step details" className="rounded border border-slate-200 p-3 text-sm dark:border-slate-800" data-testid="step-details">
      <h3 className="font-medium" title={block.state}>{humanState(block.state)}{block.attempt > 1 ? ` — attempt ${block.attempt}` : ''}</h3>
      <dl className="mt-2 grid grid-cols-[7rem_1fr] gap-y-1">
        <dt className="text-slate-600 dark:text-slate-400">Outcome</dt><dd data-testid="step-outcome">{block.status === 'current' ? 'running' : block.status === 'waiting' ? 'waiting for you: it asks for an approval' : (entryOutcome(e) ?? humanOutcome(block.status))}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Time</dt><dd>{formatDuration(e.durationMs ?? block.end - block.start)}</dd>
        {e.usage ? (<><dt className="text-slate-600 dark:text-slate-400">Tokens</dt><dd>{formatTokens(e.usage.inputTokens)} in{e.usage.cacheReadTokens ? ` (${formatTokens(e.usage.cacheReadTokens)} from cache)` : ''} · {formatTokens(e.usage.outputTokens)} out</dd></>) : null}
        {e.usage ? (<><dt className="text-slate-600 dark:text-slate-400">Cost</dt><dd data-testid="step-cost">{e.usage.costUsd !== undefined ? formatCost(e.usage.costUsd) : 'unknown (no prices for this model)'}</dd></>) : null}
        {e.test ? (<><dt className="text-slate-600 dark:text-slate-400">Tests</dt><dd><code className="font-mono">{e.test.command}</code> → {e.test.passed ? 'passed' : `failed (exit ${e.test.exitCode})`}</dd></>) : null}
        {e.files ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Files</dt>
            <dd data-testid="step-files">
              {e.files.length === 0 ? 'none touched' : (
                <ul tabIndex={0} aria-label="Files touched" className="focus-visible:outline-2 focus-visible:outline-indigo-500 max-h-40 overflow-auto">
                  {e.files.map((f) => <li key={f.path}><code className="font-mono">{f.path}</code> <span className="text-slate-600 dark:text-slate-400">{CHANGE_WORDS[f.change]}</span></li>)}
                </ul>
              )}
            </dd>
          </>
        ) : null}
        {/* A durable run's step ran in an `erasmus worker`: which one (another attempt may have run elsewhere). */}
        {e.worker ? (<><dt className="text-slate-600 dark:text-slate-400">Ran on</dt><dd data-testid="step-worker">{e.worker}</dd></>) : null}
        {e.commit ? (<><dt className="text-slate-600 dark:text-slate-400">Commit</dt><dd className="font-mono">{e.commit}</dd></>) : null}
        {e.laneCommit && e.laneCommit !== e.commit ? (<><dt className="text-slate-600 dark:text-slate-400">Merged from</dt><dd><span className="font-mono">{e.laneCommit}</span> on its lane</dd></>) : null}
        {/* Run again with the user's answer to what the attempt before asked (the retry's answer box, `retry --answer`). */}
        {e.answer ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Your answer</dt>
            <dd data-testid="step-answer">
              <span className="text-xs text-slate-600 dark:text-slate-400">given with the retry; this step ran with it:</span>
              <blockquote className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap border-l-4 border-amber-500 pl-2">{e.answer}</blockquote>
            </dd>
          </>
        ) : null}
        {e.note ? (<><dt className="text-slate-600 dark:text-slate-400">Note</dt><dd className="whitespace-pre-wrap">{e.note}</dd></>) : null}
        {/* A step that did not pass: what the model said last ("Cannot finish: …"), or "not finished" says nothing of why once the run went on. */}
        {e.lastWords ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">It said last</dt>
            <dd data-testid="step-last-words">
              {lastWordsCut(e.lastWords) ? <span className="text-xs text-slate-600 dark:text-slate-400">{lastWordsCut(e.lastWords)}:</span> : null}
              <pre tabIndex={0} aria-label="What the model said last" className="focus-visible:outline-2 focus-visible:outline-indigo-500 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">{e.lastWords.text}</pre>
            </dd>
          </>
        ) : null}
        {e.rewound ? (<><dt className="text-slate-600 dark:text-slate-400">Rewound</dt><dd data-testid="step-rewound">a rewind went back to before this step; what it did is undone</dd></>) : null}
      </dl>
      {e.checkpoint && rewind ? <RewindToHere key={e.checkpoint} runId={runId} checkpointId={e.checkpoint} running={rewind.running} onRewound={rewind.onRewound} /> : null}
      {/* A component's step side by side has no checkpoint of its own: say where a rewind goes instead of offering nothing. */}
      {!e.checkpoint && rewind && e.worktree ? (
        <p className="mt-2 text-slate-600 dark:text-slate-400" data-testid="step-no-rewind">
          Components side by side take no checkpoint of their own: to go back, select the “components” step of the Side by side lane and rewind there (every component starts afresh), or rewind to an earlier step.
        </p>
      ) : null}
      {e.test?.output ? (
        <details className="mt-2" data-testid="step-test-output">
          <summary className="cursor-pointer font-medium focus-visible:outline-2 focus-visible:outline-indigo-500">Test output (its end)</summary>
          <pre tabIndex={0} aria-label="Test output" className="focus-visible:outline-2 focus-visible:outline-indigo-500 mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">{e.test.output}</pre>
        </details>
      ) : null}
      {e.hasPrompt ? <StepPrompt key={`${runId}:${block.index}`} runId={runId} index={block.index} /> : null}
      {onOpenSession ? (
        <button type="button" onClick={onOpenSession} className="mt-2 text-indigo-700 dark:text-indigo-300 underline focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="open-step-session">
          Open this step's session
        </button>
      ) : block.status === 'current' || block.status === 'waiting' ? (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="step-session-pending">This step is running: its session is listed under Sessions now, and linked here when the step ends.</p>
      ) : (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">No agent session for this step (written by the workflow itself, or by an external engine).</p>
      )}
    </section>
  );
}

/** The prompt the step was given, read from the core when opened (it is long: the protocol, the documents). */
function StepPrompt({ runId, index }: { runId: string; index: number }) {
  const client = useClient();
  const [state, setState] = useState<{ kind: 'closed' } | { kind: 'loading' } | { kind: 'ok'; text: string | null } | { kind: 'error'; message: string }>({ kind: 'closed' });
  const asked = useRef(false);
  const load = () => {
    if (asked.current) return;
    asked.current = true;
    setState({ kind: 'loading' });
    client.request('workflow.stepPrompt', { runId, index }).then(
      (r) => setState({ kind: 'ok', text: r.prompt }),
      (err: Error) => setState({ kind: 'error', message: err.message }),
    );
  };
  return (
    <details className="mt-2" data-testid="step-prompt-details" onToggle={(ev) => (ev.currentTarget.open ? load() : undefined)}>
      <summary className="cursor-pointer font-medium focus-visible:outline-2 focus-visible:outline-indigo-500">The step’s prompt</summary>
      {state.kind === 'loading' ? <p className="mt-1 text-xs">Loading…</p> : null}
      {state.kind === 'error' ? <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">Could not read the prompt: {state.message}</p> : null}
      {state.kind === 'ok' ? (
        <pre tabIndex={0} aria-label="The step’s prompt" className="focus-visible:outline-2 focus-visible:outline-indigo-500 mt-1 max-h-96 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900" data-testid="step-prompt-text">{state.text ?? 'No prompt was recorded for this step.'}</pre>
      ) : null}
    </details>
  );
}
