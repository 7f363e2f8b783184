import { ErrorCode, RpcError } from '../../../contract/index';
import { KeychainUnavailableError } from '../../secrets/index';
import type { Core } from '../core';

async function keychain<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof KeychainUnavailableError) throw new RpcError(ErrorCode.ActionFailed, err.message, { kind: 'keychain-unavailable' });
    throw err;
  }
}

export function registerSecretsHandlers(core: Core): void {
  const d = core.dispatcher;
  d.register('secrets.list', async () => ({ names: await keychain(() => core.secrets.list()) }));
  d.register('secrets.set', async ({ name, value }) => {
    await keychain(() => core.secrets.set(name, value));
    return { ok: true as const };
  });
  d.register('secrets.delete', async ({ name }) => ({ deleted: await keychain(() => core.secrets.delete(name)) }));
}
