import type { ElicitationApproval } from '../../../../electron/contract/index';

/** The built-in servers and any other, in words: "the files toolset", "the server weather". */
export function serverWords(server: string): string {
  return server === 'files' || server === 'runners' ? `Erasmus’s ${server} toolset` : `the server ${server}`;
}

/** The arguments ApprovalPreview reads, for what a server's question approves (a diff, the new content, the command). */
export function previewArgs(a: ElicitationApproval): { name: string; args: Record<string, unknown> } | undefined {
  switch (a.change) {
    case 'command':
      return { name: a.tool, args: { command: a.original ?? a.command ?? '', ...(a.original ? { rewritten: a.command } : {}), ...(a.cwd ? { cwd: a.cwd } : {}) } };
    case 'overwrite':
      return a.content === undefined ? undefined : { name: a.tool, args: { path: a.path, content: a.content, ...(a.before !== undefined ? { previous: a.before } : {}) } };
    case 'create':
    case 'append':
      // The new content as added lines: for an append, only what is added.
      return a.content === undefined ? undefined : { name: a.tool, args: { path: a.path, content: a.content, previous: '' } };
    default:
      return undefined;
  }
}

/** How a question was answered, in words that match the buttons: a yes/no question is allowed or denied, a form submitted or declined. */
export function answerWords(answer: 'accept' | 'decline' | 'cancel' | 'gone', yesNo: boolean): string {
  if (answer === 'gone') return 'Not asked any more';
  if (yesNo) return answer === 'accept' ? 'Allowed' : answer === 'decline' ? 'Denied' : 'Withdrawn';
  return answer === 'accept' ? 'Answered' : answer === 'decline' ? 'Declined' : 'Cancelled';
}
