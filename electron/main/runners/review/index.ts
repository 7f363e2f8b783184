export { ReviewVerdict, type ScriptKind, type ScriptReviewer, type ScriptReviewRequest } from './types';
export { createModelReviewer, parseVerdict, SCRIPT_REVIEW_PROTOCOL, type ModelReviewerOptions } from './model-reviewer';
