import type { LanguageModel } from 'ai';
import { ReviewVerdict, type ScriptKind, type ScriptReviewer, type ScriptReviewRequest } from './types';

/** The script-review protocol used when the caller passes none (the review protocol's script section). */
export const SCRIPT_REVIEW_PROTOCOL = `You review one script before it runs on a developer's machine, in their project folder.
You see only the stated purpose and the script. Approve it when it does what the purpose says and nothing
more, within the project. Reject it when it:
- does something the purpose does not call for, or that the purpose hides;
- deletes, overwrites or moves files outside the project, or much more inside it than needed;
- sends data or secrets anywhere, or fetches and runs code from the network without need;
- changes the system (packages, services, users, permissions, shell profiles) or git history
  (force pushes, resets, rewriting published commits) without the purpose asking for exactly that;
- is obfuscated (encoded payloads, eval of built strings) or cannot be understood.
Answer with one JSON object and nothing else:
{"verdict": "approve" | "reject", "reasons": ["short reason", ...]}`;

const KIND_NAME: Record<ScriptKind, string> = { bash: 'bash script', dockerfile: 'Dockerfile', git: 'git command' };

/** The first JSON object in a model's answer (it may wrap it in prose or a code fence). */
export function parseVerdict(text: string): ReviewVerdict {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error('the reviewer did not answer with a JSON object');
  const parsed = ReviewVerdict.safeParse(JSON.parse(text.slice(start, end + 1)));
  if (!parsed.success) throw new Error(`the reviewer's answer is not a verdict: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

export interface ModelReviewerOptions {
  model: LanguageModel;
  /** The review protocol (system prompt); defaults to SCRIPT_REVIEW_PROTOCOL. */
  protocol?: string;
  maxOutputTokens?: number;
}

/**
 * A reviewer that makes one model call with a fresh context: the protocol as system prompt, the
 * purpose and the script as the only message. Any failure (network, unparsable answer) rejects:
 * a script nobody reviewed does not run.
 */
export function createModelReviewer(options: ModelReviewerOptions): ScriptReviewer {
  return {
    async review(req: ScriptReviewRequest, signal?: AbortSignal) {
      const prompt = `Purpose: ${req.purpose}\n\n${KIND_NAME[req.kind]} to review:\n\`\`\`\n${req.script}\n\`\`\``;
      try {
        const { generateText } = await import('ai');
        const { text } = await generateText({
          model: options.model,
          system: options.protocol ?? SCRIPT_REVIEW_PROTOCOL,
          prompt,
          maxOutputTokens: options.maxOutputTokens ?? 800,
          abortSignal: signal,
        });
        return parseVerdict(text);
      } catch (err) {
        return { verdict: 'reject', reasons: [`the script review failed, so the script was not run: ${(err as Error).message}`] };
      }
    },
  };
}
