import { z } from 'zod';

/** What a script review looks at: a bash script, a Dockerfile, or a git command that changes things. */
export type ScriptKind = 'bash' | 'dockerfile' | 'git';

export interface ScriptReviewRequest {
  /** What the model says the script is for. */
  purpose: string;
  script: string;
  kind: ScriptKind;
}

export const ReviewVerdict = z.object({
  verdict: z.enum(['approve', 'reject']),
  reasons: z.array(z.string()).default([]),
});
export type ReviewVerdict = z.output<typeof ReviewVerdict>;

/**
 * Decides whether a script may run. The real one asks a model with a fresh context and the review
 * protocol; a rejection goes back to the calling model as the tool's result.
 */
export interface ScriptReviewer {
  review(request: ScriptReviewRequest, signal?: AbortSignal): Promise<ReviewVerdict>;
}
