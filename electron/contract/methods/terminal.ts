import { z } from 'zod';
import type { MethodTable } from '../table';

/** A terminal id: `t` + a short random suffix, safe as a file name. */
export const TerminalId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a terminal id is 1-64 characters of A-Z a-z 0-9 . _ -');

export const TerminalInfo = z.object({
  id: TerminalId,
  /** `command`: a runner command (the agent's or a tool's); `shell`: a plain shell tab the user opened. */
  kind: z.enum(['command', 'shell']),
  title: z.string(),
  /** The command line as it ran (after rewriting), for command terminals. */
  command: z.string().optional(),
  cwd: z.string(),
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
  running: z.boolean(),
  exitCode: z.number().int().nullable(),
  /** The file that receives the full output. */
  outputFile: z.string().optional(),
  startedAt: z.number(),
});
export type TerminalInfo = z.infer<typeof TerminalInfo>;

const Cols = z.number().int().min(2).max(1000);
const Rows = z.number().int().min(1).max(500);

export const terminalMethods = {
  /** Every terminal the core knows, running or recently exited (for a view that connects late). */
  'terminal.list': {
    params: z.object({}).strict(),
    result: z.object({ terminals: z.array(TerminalInfo) }),
  },
  /**
   * What a terminal printed, its last `maxChars` characters at most (a view that connects late, after a
   * reload, shows it again, running or finished). `end` counts the characters sent as `terminal.data` up
   * to the answer: `data` ends there, and a chunk whose `at` is below it repeats what `data` holds.
   */
  'terminal.output': {
    params: z.object({ id: TerminalId, maxChars: z.number().int().min(1).max(2_000_000).optional() }).strict(),
    result: z.object({ data: z.string(), truncated: z.boolean(), end: z.number().int().min(0) }),
  },
  /** Open a plain interactive shell; `cwd` defaults to the open project's folder. */
  'terminal.openShell': {
    params: z.object({ cwd: z.string().min(1).max(4096).optional(), cols: Cols.optional(), rows: Rows.optional() }).strict(),
    result: TerminalInfo,
  },
  /** Type into a running terminal (keystrokes, pasted text, answers to prompts). */
  'terminal.input': {
    params: z.object({ id: TerminalId, data: z.string().max(1_000_000) }).strict(),
    result: z.object({ ok: z.literal(true) }),
  },
  /** Stop a running terminal and its whole process group (SIGTERM, then SIGKILL). */
  'terminal.kill': {
    params: z.object({ id: TerminalId }).strict(),
    result: z.object({ ok: z.literal(true) }),
  },
  'terminal.resize': {
    params: z.object({ id: TerminalId, cols: Cols, rows: Rows }).strict(),
    result: z.object({ ok: z.literal(true) }),
  },
  /**
   * Flow control: the client acknowledges `chars` characters of `terminal.data` it has rendered.
   * A PTY whose unacknowledged output passes the high watermark is paused until acknowledgements arrive.
   */
  'terminal.ack': {
    params: z.object({ id: TerminalId, chars: z.number().int().min(0).max(1e9) }).strict(),
    result: z.object({ ok: z.literal(true) }),
  },
  /** Forget an exited terminal (its tab was closed); a running one is killed first. */
  'terminal.close': {
    params: z.object({ id: TerminalId }).strict(),
    result: z.object({ ok: z.literal(true) }),
  },
} satisfies MethodTable;

/** Events of the terminal domain (spread into the contract's events map). */
export const terminalEvents = {
  /** A terminal started (a runner command or a shell tab). */
  'terminal.opened': TerminalInfo,
  /** Output, batched per terminal over a few milliseconds; `at` is where it starts in the terminal's output (characters sent before it). */
  'terminal.data': z.object({ id: TerminalId, data: z.string(), at: z.number().int().min(0) }),
  /** The terminal's process ended. */
  'terminal.exited': z.object({
    id: TerminalId,
    exitCode: z.number().int().nullable(),
    signal: z.number().int().nullable(),
    timedOut: z.boolean(),
  }),
  /** A terminal was forgotten (its tab should close). */
  'terminal.closed': z.object({ id: TerminalId }),
};
