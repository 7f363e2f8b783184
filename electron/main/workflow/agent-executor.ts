import { NOBODY_ASKED } from '../agent/approval-path';
import type { AgentSessionOptions, SessionOutcome } from '../agent/session';
import { DOC_BEGIN, DOC_END, splitContextDoc } from '../../contract/handback';
import { LEFT_OPEN_HEADING, leftOpenOf } from '../../contract/review-points';
import { databaseHint, humanState, toolName } from '../../contract/words';
import { fenced, referenceBlock } from './prompt';
import { workflowUsage } from './step-usage';
import { StepAbortedError, StepSetupError, type StepAnswer, type StepExecutor, type StepRequest, type StepResult } from './executor';
import { shellQuote } from '../runners/policy/flags';

export { DOC_BEGIN, DOC_END, splitContextDoc };

/** What a workflow step may not do itself, with what the model is told instead: the workflow commits each finished component. */
export const STEP_WITHHELD_TOOLS: Readonly<Record<string, string>> = {
  git_commit: 'a workflow step does not commit: Erasmus commits the component itself once its tests pass, so leave your changes uncommitted and go on with the task',
  git_push: 'a workflow step does not push: the user pushes when they choose, so leave the branch as it is and go on with the task',
};

/** The line a step's model begins to say the step cannot be finished (taught in every step's "How to answer", and where a call is refused with nobody to approve it). */
export const CANNOT_FINISH = 'Cannot finish:';

/**
 * How a step's model stops the run for the user, said in every step's "How to answer": without it a model that meets a
 * decision only the user can make, or a change the user declined on an approval card, can only end the step, which
 * then counts as done and the run goes on without what it needed.
 */
const stopForUser = (kept: string) => `Only if the step cannot be done without the user (a decision the goal and documents leave open, or a change they declined), neither guess nor work around it: begin a line of your final answer with \`${CANNOT_FINISH}\` and what you need; the run stops here for them${kept}.`;

/**
 * How a step answers, said once at the end of its prompt. The context documents live in
 * ERASMUS_HOME, outside the project the tools may touch, so the model hands its update back in its
 * final answer, framed by marker lines (not tags: in xml tool mode a tag reads as a tool call).
 */
export function agentHandBack(answer: StepAnswer = 'notes'): string {
  const doc = `end your final answer with a line \`${DOC_BEGIN}\`, then the complete new text of the context document, then a line \`${DOC_END}\``;
  if (answer === 'document') return `When the work is finished, your final answer is the complete document in markdown and nothing else: no greeting, no summary, no remark that you are done. Erasmus saves it as the context document. ${stopForUser('')}`;
  if (answer === 'report') return `When the review is finished, your final answer is the report in markdown and nothing else (no greeting, no remark that you are done): Erasmus saves it as the review report. To update the context document as well, ${doc}; that part is not saved in the report. ${stopForUser(', your handed-back document kept')}`;
  return `When the work is finished, your final answer says in a few lines what you did; ${doc}. ${stopForUser(', your work and handed-back document kept')}`;
}

/**
 * A part a step's answer must hold: the `## Left open` section of a fixes step, the context document a notes answer hands
 * back, the document itself (a document answer, saved whole, with at least one markdown heading).
 */
export type AnswerPart = 'left-open' | 'context-doc' | 'document';

/**
 * The parts a step requires that its answer lacks (in the order they are asked for), none when the answer says it
 * cannot finish (the step stops for the user as it is). `answer` is the answer split from its context document.
 */
export function missingParts(step: Pick<StepRequest, 'answer' | 'leftOpen'>, answer: { output: string; contextDoc?: string | undefined }): AnswerPart[] {
  if (cannotFinish(answer.output) !== undefined) return [];
  const parts: AnswerPart[] = [];
  // Saved whole as the document: one without a single heading is words about it ("The architecture is ready."), not it.
  if (step.answer === 'document' && !isDocument(answer.contextDoc ?? answer.output)) parts.push('document');
  if (step.leftOpen && leftOpenOf(answer.output) === undefined) parts.push('left-open');
  if ((step.answer ?? 'notes') === 'notes' && !answer.contextDoc?.trim()) parts.push('context-doc');
  return parts;
}

/**
 * A missing part in words a model can act on: what it is and how to give it. The context document is handed back
 * between marker lines by an agent step (`markers`), in `result.contextDoc` by an external engine (`field`).
 */
function partWords(part: AnswerPart, via: 'markers' | 'field'): string {
  if (part === 'document')
    return `the document itself: Erasmus saves ${via === 'field' ? '`output`' : 'your final answer'} whole as the context document, and yours has no markdown heading, so it reads as words about the document rather than the document`;
  if (part === 'left-open')
    return `the section \`## ${LEFT_OPEN_HEADING}\`: that heading, then each point of the review report you did not address and why, one per line starting with \`- \`, or the one line \`- none\` when you addressed them all`;
  return via === 'markers'
    ? `the context document, which Erasmus saves only from between its marker lines: a line \`${DOC_BEGIN}\`, then the complete new text of the context document, then a line \`${DOC_END}\``
    : `the context document, which Erasmus saves only from \`result.contextDoc\`: the complete new text of the context document, as one string`;
}

/** "Your final answer lacks …": the sentence naming what is missing, the same for an agent step and an external engine. */
function lacksSentence(parts: AnswerPart[], via: 'markers' | 'field'): string {
  const [a, b] = parts.map((p) => partWords(p, via));
  return b === undefined ? `Your final answer lacks ${a}.` : `Your final answer lacks two parts this step requires: first ${a}; last ${b}.`;
}

/**
 * The follow-up a step's model gets, once, when its final answer lacks a part the step requires (the context document a
 * notes answer hands back, a fixes step's \`## Left open\` section): it names what is missing and how to give it, so the
 * part is neither dropped in silence nor only flagged at the run's completion. Undefined when nothing is missing, or
 * when the model said it cannot finish (the step stops for the user as it is).
 */
export function missingPartsFollowUp(step: Pick<StepRequest, 'answer' | 'leftOpen'>, answer: string): string | undefined {
  const parts = missingParts(step, splitContextDoc(answer));
  if (!parts.length) return undefined;
  // A document answer is saved whole as the document: one without a single heading is words about it ("The architecture is
  // ready."), not it (played as the model: such an answer became the architecture every later step was shown).
  if (parts.includes('document'))
    return `${lacksSentence(['document'], 'markers')} Reply with the complete document in markdown, headings included, and nothing else: your reply replaces your answer.`;
  return `${lacksSentence(parts, 'markers')} Reply with only ${parts.length === 1 ? 'that part' : 'those two parts, in that order'}, and no tool calls unless you need one to write ${parts.length === 1 ? 'it' : 'them'}: what you already said is kept, and your reply is added to it.`;
}

/**
 * The same follow-up for an external engine (workflow_submit_task), whose answer lacked a part: the step still waits,
 * and the engine submits its whole answer again with the part (a submit stands alone: \`output\`, \`done\` and
 * \`contextDoc\` together, as the step's "How to answer" says), so nothing is joined across two calls.
 */
export function externalFollowUp(step: Pick<StepRequest, 'answer' | 'leftOpen' | 'runId' | 'state'>, result: { output: string; contextDoc?: string | undefined }): string | undefined {
  const parts = missingParts(step, result);
  if (!parts.length) return undefined;
  const output = parts.includes('document') ? '<the complete document in markdown, headings included, and nothing else>' : parts.includes('left-open') ? `<your output as before, then the ## ${LEFT_OPEN_HEADING} section>` : '<your output as before>';
  const doc = (step.answer ?? 'notes') !== 'notes' ? '' : `, "contextDoc": "${parts.includes('context-doc') ? '<the complete new text of the context document>' : '<the context document as before>'}"`;
  return `${lacksSentence(parts, 'field')} Your answer was not taken: step ${step.state} still waits for it. Call workflow_submit_task again with your whole answer: {"runId": "${step.runId}", "state": "${step.state}", "result": {"output": "${output}", "done": true${doc}}}.`;
}

/** The timeline's note on a step whose answer still lacked a part after it was asked for it once: the answer is taken as it is. */
export function stillLacksNote(parts: AnswerPart[]): string {
  const what = parts.map((p) => (p === 'left-open' ? `its \`## ${LEFT_OPEN_HEADING}\` section` : p === 'document' ? 'the document itself (its answer had no markdown heading)' : 'its context document')).join(' and ');
  const kept = parts.includes('context-doc') ? '; the context document was not updated' : '';
  return `asked once for ${what}, the model answered again without ${parts.length === 1 ? 'it' : 'them'}: the answer was taken as it is${kept}`;
}

/** Whether a document answer reads as a document: it has at least one markdown heading (`# …`). */
const isDocument = (text: string) => /^[ \t]{0,3}#{1,6}[ \t]+\S/m.test(text);

/**
 * A final answer and the reply to its follow-up, as one answer (the reply's context document, else the first's, at its end).
 * A document answer is replaced by a reply that is a document, and kept when the reply is not (it is saved whole).
 */
export function withFollowUp(first: string, reply: string, answer?: StepRequest['answer']): string {
  if (answer === 'document') return isDocument(splitContextDoc(reply).contextDoc ?? reply) ? reply : first;
  const a = splitContextDoc(first);
  const b = splitContextDoc(reply);
  const doc = b.contextDoc ?? a.contextDoc;
  const said = [a.output.trim(), b.output.trim()].filter(Boolean).join('\n\n');
  return doc === undefined ? said : `${said}\n${DOC_BEGIN}\n${doc.replace(/\s+$/, '')}\n${DOC_END}\n`;
}

export type RunAgentSession = (options: AgentSessionOptions) => Promise<SessionOutcome>;

export interface AgentExecutorOptions {
  /** Approve what the command policy does not refuse (unattended runs). */
  autoApprove?: boolean;
  /** Provider and model for every step (default: config.yaml's default provider). */
  provider?: AgentSessionOptions['provider'];
  toolMode?: AgentSessionOptions['toolMode'];
  /** The toolsets that can be opened now (the hub's); a step needing another fails at once, naming it. */
  availableToolsets?: () => string[] | Promise<string[]>;
}

/** The error of a step whose protocol needs toolsets that are not there, with how to recover. */
export function missingToolsetsMessage(state: string, missing: string[], available: string[]): string {
  return `step ${state} needs the toolset(s) ${missing.join(', ')}, which this session does not have (available: ${available.join(', ') || 'none'}). Erasmus's own files and runners toolsets come with the app, \`erasmus serve\` and \`erasmus workflow\`; another toolset must be added and enabled in the Servers view (or mcp/config.json), or dropped from the protocol's \`toolsets:\` (a project override in .erasmus/protocols/). Then retry the step.`;
}

/**
 * The step's task for an agent session: its prompt without the protocol it opens with, since the
 * session's system prompt carries the protocol already (an external engine gets the whole prompt).
 */
export function agentTask(step: Pick<StepRequest, 'prompt' | 'protocol' | 'role' | 'protocolPrompt'>): string {
  const name = step.role ?? step.protocol;
  const head = `# Protocol: ${name}\n\n${step.protocolPrompt}\n\n`;
  if (!step.protocolPrompt.trim() || !step.prompt.startsWith(head)) return step.prompt;
  return `# Step of the ${name} protocol (the protocol is in your system prompt)\n\n${step.prompt.slice(head.length)}`;
}

/**
 * The architecture a step's prompt shows, moved into the part of the system prompt every step of the run shares
 * (it changes only when the design and final documentation steps write it): the task says where it is instead.
 */
export function sharedArchitecture(task: string, architecture: string | undefined): { task: string; sections: Array<{ title: string; body: string }> } {
  const block = architecture?.trim() ? referenceBlock('Architecture', architecture) : undefined;
  if (!block || !task.includes(block)) return { task, sections: [] };
  return { task: task.replace(block, '## Architecture\n\nIn your system prompt, under "Architecture".'), sections: [{ title: 'Architecture', body: `The project's architecture document, as this run has it now (read-only here):\n\n${fenced(architecture!.trim())}` }] };
}


/** What the model said after a line beginning `Cannot finish:` in its final answer, or undefined when it says no such thing. */
export function cannotFinish(answer: string | undefined): string | undefined {
  const m = /^[ \t>*_-]*Cannot finish:[*_]*[ \t]*(.*)$/im.exec(answer ?? '');
  return m ? m[1]!.trim() || 'the model gave no reason' : undefined;
}

const callList = (calls: string[]) => {
  const counted = new Map<string, number>();
  for (const c of calls.map(toolName)) counted.set(c, (counted.get(c) ?? 0) + 1);
  return [...counted].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
};

/**
 * The error of a step whose model said it cannot finish (after calls were refused because nobody could approve them,
 * a run without a terminal and without --yes): it must not count as done and be committed. Says why, which calls
 * and how to recover (`sessionLog`: the step's session, none for an external engine's). `projectDir`: the project's folder the command lines name; `component`: a side-by-side
 * component's step (it works in a worktree of the project), whose retry and skip name it (`--component`), its own
 * answer box on its card in the app.
 */
export function cannotFinishMessage(state: string, why: string, calls: string[], sessionLog: string | undefined, projectDir: string, component?: string, database?: string): string {
  // The project's folder in the command lines, ready to copy; a component side by side is named, as only it is retried;
  // a durable run's database is passed on (every process that drives it needs it).
  const db = databaseHint(database ? { database } : undefined);
  const dir = `${shellQuote(projectDir)}${component ? ` --component ${shellQuote(component)}` : ''}${db.option}`;
  const box = component ? `the box on component ${component}'s card` : 'the box under the step';
  const refused = calls.length ? ` ${calls.length} call(s) ${NOBODY_ASKED} (${callList(calls)}).` : '';
  // Without refused calls the model stopped for something only the user can settle: no approval to answer on a retry.
  // A preparation step writes a document, saved only when it finishes, and cannot be skipped; what it asks is often the
  // goal itself, which a new goal says again (played as a user: the design step asked which of two readings the goal meant).
  const preparing = state.startsWith('prepare:');
  // A component's merge into the run's branch (`<id>:merge`) cannot be skipped; its conflicts are in the project folder.
  const merging = state.endsWith(':merge');
  const how = calls.length
    ? `Retry the step where the approvals can be answered: "Retry step" in the app, \`erasmus workflow retry ${dir}\` on a terminal, or \`erasmus workflow retry ${dir} --yes\` to approve them unattended`
    : merging
      ? `Answer it with the retry (in the app, write the answer in the box under the step and press Retry with this answer; on a terminal, \`erasmus workflow retry ${dir} --answer TEXT\`), or resolve the conflicts yourself in ${projectDir} (remove every <<<<<<< ======= >>>>>>> marker; do not commit) and retry without an answer: Erasmus commits the merge`
    : preparing
      ? `Answer it with the retry: in the app, write the answer in ${box} and press Retry with this answer; on a terminal, \`erasmus workflow retry ${dir} --answer TEXT\`. Where the goal itself is unclear, give it again in words that settle it (\`erasmus workflow start ${shellQuote(projectDir)} --new --goal TEXT\`, which marks this run abandoned)`
      : `Answer it with the retry (in the app, write the answer in ${box} and press Retry with this answer; on a terminal, \`erasmus workflow retry ${dir} --answer TEXT\`), or settle it yourself (change the code, a test or the documents${component ? ', in its worktree' : ''}) and retry without an answer, or skip the step${component ? ` (\`erasmus workflow skip ${dir}\`)` : ''}`;
  const kept = preparing ? '' : merging ? ' The conflicts and what the step did to them stay in the project folder.' : " The rest of the step's work and its notes are kept.";
  // Said as a sentence: a question keeps its mark ("…a slugify option?"), never "?.".
  const said = why.replace(/[.\s]+$/, '');
  return `The step ${humanState(state)} cannot finish: ${said}${/[!?]$/.test(said) ? '' : '.'}${refused}${kept} ${how}${db.note}${sessionLog ? ` (log: ${sessionLog})` : ''}.`;
}

/** The timeline's note on a step that went on without calls nobody could approve. */
export function wentOnWithout(calls: string[]): string {
  return `${calls.length} call(s) not run, as nobody could approve them (${callList(calls)}); the step went on without them`;
}

/**
 * Runs each step as one agent session (electron/main/agent): the protocol's prompt as the system
 * protocol, the assembled step prompt as the task, the protocol's toolsets open from the start,
 * its budget as the session's. "Done" is the model ending the session itself (endedReason
 * "complete"); a spent budget is "not done"; an error blocks the run.
 */
export class AgentExecutor implements StepExecutor {
  readonly kind = 'agent';

  constructor(
    private readonly runSession: RunAgentSession,
    private readonly options: AgentExecutorOptions = {},
  ) {}

  async run(step: StepRequest): Promise<StepResult> {
    // The run's toolsets this session can open (a toolset only another step names, and the hub lacks, is left out here).
    let runToolsets = step.runToolsets;
    if (this.options.availableToolsets) {
      const available = await this.options.availableToolsets();
      const missing = step.toolsets.filter((t) => !available.includes(t));
      if (missing.length) throw new StepSetupError(missingToolsetsMessage(step.state, missing, available));
      runToolsets = runToolsets?.filter((t) => available.includes(t));
    }
    // Calls refused because nobody could approve them: a step that ends with such refusals is not done.
    const unanswered: string[] = [];
    // The last text the model wrote in a turn (its words between tool calls): what it said last when it gives no answer.
    let said = '';
    let lastText = '';
    const shared = sharedArchitecture(agentTask(step), step.architecture);
    // The final answer before a follow-up asked for a part it lacked (set only when one was asked).
    let first: string | undefined;
    const ran = await this.runSession({
      onEvent: (e) => {
        if (e.type === 'session_started') step.onSession?.(e.logPath);
        if (e.type === 'tool_complete' && e.isError && e.result.includes(NOBODY_ASKED)) unanswered.push(e.name);
        if (e.type === 'sentence') said += e.text;
        else if (e.type === 'usage' && said.trim()) [lastText, said] = [said, ''];
      },
      task: `${shared.task}\n\n## How to answer\n\n${agentHandBack(step.answer)}`,
      ...(shared.sections.length ? { sharedSections: shared.sections } : {}),
      project: step.projectDir,
      protocolPrompt: step.protocolPrompt,
      toolsets: step.toolsets,
      openToolsets: step.toolsets,
      ...(runToolsets ? { runToolsets } : {}),
      budgets: { maxTurns: step.budget.maxTurns, ...(step.budget.maxTokens ? { maxTokens: step.budget.maxTokens } : {}), ...(step.budget.maxCostUsd !== undefined ? { maxCostUsd: step.budget.maxCostUsd } : {}) },
      withholdTools: STEP_WITHHELD_TOOLS,
      ...(step.access ? { projectAccess: step.access } : {}),
      ...(step.worktree ? { worktree: step.worktree } : {}),
      step: step.state,
      autoApprove: this.options.autoApprove ?? false,
      provider: this.options.provider,
      toolMode: this.options.toolMode,
      signal: step.signal,
      followUp: (o) => {
        const ask = missingPartsFollowUp(step, o.finalAnswer ?? '');
        if (ask) first = o.finalAnswer ?? '';
        return ask;
      },
    });
    // After a follow-up: its reply joins the first answer; a follow-up that did not end in an answer (its budget ran
    // out, an error) leaves the first answer as it was, the step done as before (the completion flags what is missing).
    const outcome: SessionOutcome =
      first === undefined || ran.endedReason === 'stopped' ? ran : ran.endedReason === 'complete' ? { ...ran, finalAnswer: withFollowUp(first, ran.finalAnswer ?? '', step.answer) } : { ...ran, endedReason: 'complete', finalAnswer: first };
    // A follow-up that got no reply is said on the timeline, not passed over.
    const unreplied = first !== undefined && ran.endedReason !== 'complete' && ran.endedReason !== 'stopped' ? `asked for a part its answer lacked, the model gave no reply (${ran.error ?? ran.endedReason}); its first answer stands` : undefined;
    // A reply that still lacks the part is taken as it is (asked once only), and the timeline says so.
    const still = first !== undefined && ran.endedReason === 'complete' ? missingParts(step, splitContextDoc(outcome.finalAnswer ?? '')) : [];
    const lacking = still.length ? stillLacksNote(still) : undefined;
    if (outcome.endedReason === 'stopped' || step.signal.aborted) throw new StepAbortedError(step.state);
    // No log: the session never started (config.yaml unreadable, no provider): the model did not run, so its retry is not told of it.
    if (outcome.endedReason === 'error' && !outcome.logPath) throw new StepSetupError(`the model's session for ${humanState(step.state)} could not start: ${outcome.error ?? 'no reason given'}; the model did not run. Fix that, then retry the step`);
    if (outcome.endedReason === 'error') throw new Error(`the model's session for ${humanState(step.state)} ended with an error: ${outcome.error ?? 'no reason given'} (its log: ${outcome.logPath})`);
    const { output, contextDoc } = splitContextDoc(outcome.finalAnswer ?? '');
    // A call nobody could approve was refused in words for the model, which went on without it: the step is done
    // unless the model says it cannot finish (then it blocks, its work and handed-back document kept) or its gate fails.
    const cannot = outcome.endedReason === 'complete' ? cannotFinish(output) : undefined;
    return {
      output,
      ...(contextDoc !== undefined ? { contextDoc } : {}),
      done: outcome.endedReason === 'complete' && cannot === undefined,
      // Asked without a refused call: what it needs is the user's answer, not an approval (the faces offer the answer).
      ...(cannot !== undefined ? { notDoneBecause: cannotFinishMessage(step.state, cannot, unanswered, outcome.logPath, (step.worktree && step.runDir) || step.projectDir, step.worktree ? step.component : undefined, step.database), ...(unanswered.length ? {} : { asks: true }) } : unanswered.length || unreplied || lacking ? { note: [unanswered.length ? wentOnWithout(unanswered) : '', unreplied ?? '', lacking ?? ''].filter(Boolean).join('; ') } : {}),
      usage: workflowUsage(outcome.usage),
      sessionLog: outcome.logPath,
      ...(!output.trim() && (said.trim() || lastText.trim()) ? { lastText: said.trim() || lastText } : {}),
    };
  }
}
