import { RpcError } from '../../../../electron/contract/index';

export const inputClass =
  'rounded border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 aria-[invalid=true]:border-red-500 dark:border-slate-600 dark:bg-slate-900';

/** The field a core error names (settings.* failures carry `data.field`), if any. */
export function errorField(err: unknown): string | undefined {
  if (!(err instanceof RpcError)) return undefined;
  const data = err.data as { field?: unknown } | undefined;
  return typeof data?.field === 'string' ? data.field : undefined;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
