import { z } from 'zod';
import type { MethodTable } from '../table';

export const SecretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, 'a secret name is letters, digits, _ . - (starting with a letter or _), at most 128 characters');

export const secretsMethods = {
  /** Names only: values never travel to a face. */
  'secrets.list': {
    params: z.object({}).strict(),
    result: z.object({ names: z.array(z.string()) }),
  },
  'secrets.set': {
    params: z.object({ name: SecretName, value: z.string().min(1).max(64 * 1024) }).strict(),
    result: z.object({ ok: z.literal(true) }),
  },
  'secrets.delete': {
    params: z.object({ name: SecretName }).strict(),
    result: z.object({ deleted: z.boolean() }),
  },
} satisfies MethodTable;
