import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

import { NOBODY_ASKED, unansweredReason } from '../../main/agent/approval-path';
import { ANSWER_WAIT_MS } from '../keep-alive';
import { APPROVAL_META, type ElicitationApproval } from '../../contract/index';

/** The answer to a confirmation; `unanswered` when nobody could be asked (its reason in `why`). */
export type Confirmation = 'accept' | 'decline' | 'cancel' | 'unsupported' | { unanswered: string };

/**
 * Asks the client to confirm a destructive action with an MCP elicitation request. A client that
 * did not declare the elicitation capability is never asked and never gets the action silently:
 * the answer is `unsupported`, which callers turn into a refusal.
 */
export async function confirmAction(server: McpServer, message: string, approval?: ElicitationApproval, signal?: AbortSignal): Promise<Confirmation> {
  const caps = server.server.getClientCapabilities();
  if (!caps?.elicitation) return 'unsupported';
  // A yes/no question: no fields (accept is yes, decline is no), with what it approves under _meta for a client that shows it.
  const result = await server.server.elicitInput({
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: {} },
    ...(approval ? { _meta: { [APPROVAL_META]: approval } } : {}),
  }, { timeout: ANSWER_WAIT_MS, ...(signal ? { signal } : {}) });
  const why = unansweredReason(result);
  if (why !== undefined) return { unanswered: why };
  return result.action;
}

export function refusalText(action: string, answer: Exclude<Confirmation, 'accept'>): string {
  if (typeof answer === 'object') return `${action}: not done, it ${NOBODY_ASKED} (${answer.unanswered}); nothing was changed.`;
  if (answer === 'unsupported') {
    return `${action}: not done, it ${NOBODY_ASKED} (this MCP client does not support elicitation); nothing was changed. Use a client that supports elicitation, or ask the user to do it.`;
  }
  return `${action} was not confirmed (${answer === 'decline' ? 'declined' : 'cancelled'} by the user); nothing was changed.`;
}
