import { z } from 'zod';
import type { MethodTable } from '../table';

/** One finding of `erasmus doctor` / `app.doctor`: what works, and how to fix what does not. */
export const DoctorCheck = z.object({
  id: z.enum(['sandbox', 'keychain', 'pty', 'providers']),
  status: z.enum(['ok', 'warn', 'fail']),
  summary: z.string(),
  detail: z.string().optional(),
  fix: z.string().optional(),
});
export type DoctorCheck = z.infer<typeof DoctorCheck>;

export const appMethods = {
  /** Round trip used by health checks and tests. */
  'app.ping': {
    params: z.object({ message: z.string().max(100_000).optional() }).strict(),
    result: z.object({ pong: z.literal(true), message: z.string().optional(), time: z.number() }),
  },
  /** What the core is: version, platform, ERASMUS_HOME and which face is talking. */
  'app.info': {
    params: z.object({}).strict(),
    result: z.object({
      version: z.string(),
      platform: z.string(),
      home: z.string(),
      face: z.enum(['desktop', 'browser', 'cli']),
      /** Whether runner commands run in an OS sandbox; without one every command that is not read-only asks. */
      sandbox: z.object({ available: z.boolean(), detail: z.string() }),
    }),
  },
  /** The installation's health: sandbox, keychain, node-pty, providers (as `erasmus doctor` prints it). */
  'app.doctor': {
    params: z.object({}).strict(),
    result: z.object({ checks: z.array(DoctorCheck) }),
  },
  /** List the method names the core serves (for diagnostics and the CLI). */
  'app.methods': {
    params: z.object({}).strict(),
    result: z.object({ methods: z.array(z.string()) }),
  },
} satisfies MethodTable;
