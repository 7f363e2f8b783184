import { lastWordsOf } from '../../contract/last-words';
import { LEFT_OPEN_HEADING } from '../../contract/review-points';
import type { WorkflowStep, WorkflowStepResult, WorkflowTimelineEntry, WorkflowUsage } from '../../contract/methods/workflow';
import { invalidState } from './errors';
import type { ProtocolName } from './protocols';

/** One step the workflow asks a model to do: a protocol's prompt over one context document. */
export interface StepRequest {
  runId: string;
  /** The FSM state (`adder:testing`) or preparation step (`prepare:architecture`). */
  state: string;
  protocol: ProtocolName;
  /** The name its prompt gives the protocol, when the step borrows this one's tools and budget (the merge step). */
  role?: string;
  component?: string;
  /** The assembled prompt: protocol, goal, tasks, context document, test output. */
  prompt: string;
  /** The system part (the protocol's own prompt), for executors that keep it apart. */
  protocolPrompt: string;
  toolsets: string[];
  /** Every toolset the run's steps use, in one order (set by the run): an agent step describes them all and may call only `toolsets`. */
  runToolsets?: string[];
  /** The architecture as the run has it now (set by the run): an agent step whose prompt shows it moves it into the shared start of its system prompt. */
  architecture?: string;
  /** What the step may do to the project (the protocol's `access`; default write). */
  access?: 'write' | 'read' | 'markdown';
  /** The document the step reads and updates (the context swap). */
  contextDocPath: string;
  projectDir: string;
  /** A parallel run's component step: projectDir is this git worktree of the project (the tools work there). */
  worktree?: string;
  /** With `worktree`: the project's own folder, the one the user knows, which the step's command lines for the user name. */
  runDir?: string;
  /** A durable run's database (its password masked), which the step's command lines for the user pass on (--database-url). */
  database?: string;
  budget: { maxTurns: number; maxTokens?: number; /** What is left of the run's dollar budget. */ maxCostUsd?: number };
  /** What the final answer is: the context document itself, a report (saved in the project), or notes. */
  answer?: StepAnswer;
  /** A fixes step: its final answer must list the review points it left open under a `## Left open` heading. */
  leftOpen?: boolean;
  signal: AbortSignal;
  /** Called once the step's agent session has its log, so the running step names its session (the sessions list, the timeline). */
  onSession?: (sessionLog: string) => void;
}

export type StepAnswer = 'document' | 'report' | 'notes';

export type StepUsage = WorkflowUsage;
/**
 * A step's result; `notDoneBecause` (agent steps) says why a step that ended is not done, for the run's error;
 * `note`, what the timeline should say about a step that is done (calls it went on without).
 */
/** `lastText`: the last text the model wrote when it gave no answer (its budget ran out), for `lastWords`. */
/** `asks`: with `notDoneBecause`, the model stopped to ask the user something only they can settle (the run's error says so). */
export type StepResult = WorkflowStepResult & { notDoneBecause?: string; note?: string; lastText?: string; asks?: boolean };

/** What a step that did not pass keeps of its model's last words (its answer, else the last text it wrote), for its timeline entry. */
export function lastWordsField(r: Pick<StepResult, 'output' | 'lastText'>): Pick<WorkflowTimelineEntry, 'lastWords'> {
  const lastWords = lastWordsOf(r.output.trim() ? r.output : r.lastText);
  return lastWords ? { lastWords } : {};
}

/** Runs one step with some model: the agent loop, an external cognitive engine, or a command. */
export interface StepExecutor {
  readonly kind: string;
  run(step: StepRequest): Promise<StepResult>;
}

export function stepView(step: StepRequest): WorkflowStep {
  return {
    state: step.state,
    protocol: step.protocol,
    component: step.component,
    toolsets: step.toolsets,
    contextDocPath: step.contextDocPath,
    projectDir: step.projectDir,
    answer: step.answer ?? 'notes',
    ...(step.leftOpen ? { leftOpen: true } : {}),
  };
}

/**
 * A step that could not start (a toolset its protocol needs is missing, its protocol file unreadable or invalid): the
 * model never ran, so the step's retry is not told of it as an attempt that did not finish. `cause`: the error it wraps
 * (a WorkflowError keeps its kind and the file it names).
 */
export class StepSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StepSetupError';
  }
}

/** An error met before a step's model ran (loading its protocol), as a StepSetupError. */
export const beforeStep = (err: unknown): StepSetupError => (err instanceof StepSetupError ? err : new StepSetupError((err as Error).message, { cause: err }));

export class StepAbortedError extends Error {
  constructor(state: string) {
    super(`step ${state} was aborted`);
    this.name = 'StepAbortedError';
  }
}

interface Pending {
  step: StepRequest;
  resolve: (r: StepResult) => void;
  reject: (e: Error) => void;
}

/**
 * What an external engine submits for a step, said once at the end of its prompt (the same shape as
 * workflow_submit_task's schema and the contract's WorkflowStepResult).
 */
export function externalHandBack(step: Pick<StepRequest, 'runId' | 'state' | 'answer' | 'projectDir' | 'leftOpen'>): string {
  const call = (result: string, verb = 'Call') => `${verb} workflow_submit_task with {"runId": "${step.runId}", "state": "${step.state}", "result": ${result}}.`;
  // How to stop for the user, as an agent step is told (agent-executor.ts stopForUser): the run's error then asks them, and their answer comes with the retry.
  const done = '`done` is true when the "Done when" criteria are met, false if they are not (the run then stops at this step). Only if the step cannot be done without the user (a decision the goal and documents leave open), neither guess nor work around it: submit `done` false with a line of `output` beginning `Cannot finish:` and what you need; the run stops and asks the user, and the step comes again with their answer';
  if (step.answer === 'document') return `${call('{"output": "<the complete document in markdown, headings included>", "done": true}')} \`output\` is the document itself and nothing else (not words about it); Erasmus saves it. ${done}.`;
  if (step.answer === 'report')
    return `${call('{"output": "<the report, markdown>", "done": true, "contextDoc": "<optional: the complete new text of the context document>"}')} \`output\` is the report and nothing else; Erasmus saves it as the review report. ${done}.`;
  return `Make the changes your task asks for in the project (${step.projectDir}) with your own tools, then ${call('{"output": "<a few lines: what you did>", "done": true, "contextDoc": "<the complete new text of the context document>"}', 'call')} \`output\` must not be empty${step.leftOpen ? ` and ends with the \`## ${LEFT_OPEN_HEADING}\` section your task asks for` : ''}; \`contextDoc\` is required, as Erasmus saves the context document only from it. ${done}.`;
}

/**
 * The external cognitive engine: a step waits (status AWAITING_COGNITIVE_RESULT) with its prompt
 * until `submit` brings the answer. Another MCP client acts as the model this way.
 */
export class ExternalExecutor implements StepExecutor {
  readonly kind = 'external';
  private pending: Pending | undefined;

  constructor(private readonly onAwait: (step: StepRequest) => void) {}

  get waiting(): StepRequest | undefined {
    return this.pending?.step;
  }

  run(request: StepRequest): Promise<StepResult> {
    const step = { ...request, prompt: `${request.prompt}\n\n## How to answer\n\n${externalHandBack(request)}` };
    if (this.pending) return Promise.reject(invalidState(`step ${this.pending.step.state} is still waiting for its result`));
    return new Promise<StepResult>((resolve, reject) => {
      const onAbort = () => {
        if (this.pending?.step === step) this.pending = undefined;
        reject(new StepAbortedError(step.state));
      };
      if (step.signal.aborted) return onAbort();
      step.signal.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        step,
        resolve: (r) => {
          step.signal.removeEventListener('abort', onAbort);
          resolve(r);
        },
        reject,
      };
      this.onAwait(step);
    });
  }

  /** Delivers the result of the waiting step; INVALID_STATE when no step waits. */
  submit(result: StepResult): void {
    const p = this.pending;
    if (!p) throw invalidState('no step is waiting for a cognitive result');
    this.pending = undefined;
    p.resolve(result);
  }
}
