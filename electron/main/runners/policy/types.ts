import type { SimpleCommand } from '../sh/commands';
import type { ShellNode } from '../sh/parser';
import type { StaticWord, WordEnv } from '../sh/words';

/** What the policy says about a command line: run it, ask the user first, or never run it. */
export type Verdict = 'run' | 'approve' | 'refuse';

export interface PolicyContext {
  /** The user's home folder (removing it, or anything directly inside it, is refused). */
  home: string;
  /** The folder the command runs in; relative paths resolve against it. */
  cwd: string;
  /** The settings override: refusals become approvals that carry a warning. */
  allowDangerous?: boolean;
  /** The project folder (default: cwd): writes inside it are ordinary work, writes outside ask. */
  root?: string;
  /** Commands run in the OS sandbox (runners/pty/sandbox.ts): build and test tools may run unasked. */
  sandboxed?: boolean;
  /**
   * The command's session temporary folder, its $TMPDIR (runners/runner.ts), where a command keeps scratch files:
   * `$TMPDIR` in a line is this path, and a write inside it is never asked. With the sandbox on, the project and this
   * folder are the only places a command can write: a write elsewhere is refused at once (it would fail), naming them.
   */
  tmpDir?: string;
}

export interface Classification {
  verdict: Verdict;
  reasons: string[];
  /** Some program in the line reaches the network (the sandbox opens it only for an accepted command). */
  network: boolean;
  /**
   * A reason to ask is flagged (destructive, outside the project, where hooks live, or a refusal the
   * settings let through): the user is asked each time, and no "always allow" answers it.
   */
  askEachTime: boolean;
}

/** Why a finding is asked each time, never covered by an "always allow": it destroys, or reaches outside the project or where hooks live. */
export type FindingFlag = 'destructive' | 'outside' | 'hooks';

export interface Finding {
  verdict: Verdict;
  reason: string;
  flag?: FindingFlag;
}

export const VERDICT_RANK: Record<Verdict, number> = { run: 0, approve: 1, refuse: 2 };

/** One argument of a command: its node, its static value (null when dynamic) and its source text. */
export interface Arg {
  word: StaticWord | null;
  raw: string;
  node: ShellNode | null;
}

/** What a program check receives: the effective program (wrappers removed) and its arguments. */
export interface ProgramCall {
  name: string;
  /** The program as written (`./del2`, `/bin/rm`), when known. */
  path?: string;
  args: Arg[];
  cmd: SimpleCommand;
  /** Arguments arrive on stdin (xargs), so targets are unknown. */
  fromStdin: boolean;
  env: WordEnv;
  /** Classifies a nested command line (sh -c, eval, find -exec, watch). */
  nested: (source: string, via: string) => Finding[];
  /** Classifies a nested argument vector (find -exec, xargs) as one simple command. */
  nestedArgv: (args: Arg[], via: string, fromStdin: boolean) => Finding[];
}

export type ProgramCheck = (call: ProgramCall) => Finding[];
