import { z } from 'zod';

/**
 * What a user may "always allow" on an approval card of Erasmus's own servers: a kind of action, never
 * one the server judged must be asked each time (a write to a hook or credential file, a command outside
 * the sandbox, one that wants the network, or one the command policy flags destructive or outside the
 * project: those carry no grant).
 */
export const GrantKind = z.enum(['files.write', 'files.remove', 'commands.sandboxed']);
export type GrantKind = z.infer<typeof GrantKind>;

/** How long an "always allow" holds: the workflow run now driving the project, or the project from now on. */
export const GrantScope = z.enum(['run', 'project']);
export type GrantScope = z.infer<typeof GrantScope>;

const kindWords: Record<GrantKind, string> = {
  'files.write': 'writing files',
  'files.remove': 'removing and moving files',
  'commands.sandboxed': 'running commands in the sandbox',
};

/** The kind in words ("writing files"). */
export function grantWords(kind: GrantKind): string {
  return kindWords[kind];
}

/** The button's words: "Always allow writing files in this project for this run" / "… in this project". */
export function alwaysAllowWords(kind: GrantKind, scope: GrantScope): string {
  return `Always allow ${kindWords[kind]} in this project${scope === 'run' ? ' for this run' : ''}`;
}
