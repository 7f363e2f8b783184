import type { z } from 'zod';

/** One entry per JSON-RPC method: named params in, a result out, both validated. */
export interface MethodSpec {
  params: z.ZodType<Record<string, unknown>>;
  result: z.ZodType;
}
export type MethodTable = Record<string, MethodSpec>;
