import { z } from 'zod';
import type { MethodTable } from '../table';

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
    }),
  },
  /** List the method names the core serves (for diagnostics and the CLI). */
  'app.methods': {
    params: z.object({}).strict(),
    result: z.object({ methods: z.array(z.string()) }),
  },
} satisfies MethodTable;
