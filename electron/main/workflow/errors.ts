/**
 * Typed workflow errors. The codes follow the cognitive-engine protocol (seed 004): a client of
 * load/getTask/submitTask can tell "no such run" from "wrong moment" from "bad document".
 */
export const WorkflowErrorKind = {
  RunNotFound: 'RUN_NOT_FOUND',
  ExecutionNotFound: 'EXECUTION_NOT_FOUND',
  InvalidState: 'INVALID_STATE',
  ParseError: 'PARSE_ERROR',
  RuntimeError: 'RUNTIME_ERROR',
} as const;
export type WorkflowErrorKind = (typeof WorkflowErrorKind)[keyof typeof WorkflowErrorKind];

/** JSON-RPC codes of the kinds above (application range, after ActionFailed = -32000). */
export const workflowErrorCodes: Record<WorkflowErrorKind, number> = {
  RUN_NOT_FOUND: -32010,
  EXECUTION_NOT_FOUND: -32011,
  INVALID_STATE: -32012,
  PARSE_ERROR: -32013,
  RUNTIME_ERROR: -32014,
};

export interface DocumentIssue {
  /** 1-based line in the document, when the problem has one. */
  line?: number;
  message: string;
}

export class WorkflowError extends Error {
  constructor(
    readonly kind: WorkflowErrorKind,
    message: string,
    /** For PARSE_ERROR: the file and what is wrong in it. `dirty`: the uncommitted files a new run was refused for (the app offers commit, stash, include). */
    /** `asks`: a step's model stopped to ask the user (WorkflowErrorInfo `asks`). */
    readonly details?: { file?: string; field?: string; issues?: DocumentIssue[]; dirty?: string[]; asks?: boolean },
  ) {
    super(message);
    this.name = 'WorkflowError';
  }

  get code(): number {
    return workflowErrorCodes[this.kind];
  }
}

export function runNotFound(runId: string): WorkflowError {
  return new WorkflowError('RUN_NOT_FOUND', `no workflow run with id ${JSON.stringify(runId)}`);
}

export function invalidState(message: string): WorkflowError {
  return new WorkflowError('INVALID_STATE', message);
}

/** One readable message for a document with issues: "file: line 3: …; line 7: …". */
export function describeDocumentIssues(file: string, issues: DocumentIssue[]): string {
  const parts = issues.map((i) => (i.line ? `line ${i.line}: ${i.message}` : i.message));
  return `${file}: ${parts.join('; ')}`;
}
