import { useContext, useEffect, useState } from 'react';
import type { RpcClient } from '../api/client';
import { ConnectionContext } from '../api/context';
import type { ConnectionStatus } from '../api/pipes';

/**
 * How the connection to the core is: `reconnecting` while a dropped WebSocket tries again, `lost` once
 * the pipe closed for good (`erasmus serve` stopped and did not come back, the window's core quit).
 */
export function useConnectionStatus(client: RpcClient): ConnectionStatus {
  const pipe = useContext(ConnectionContext);
  const [status, setStatus] = useState<ConnectionStatus>(client.isClosed ? 'lost' : (pipe?.status ?? 'connected'));
  useEffect(() => {
    if (client.isClosed) setStatus('lost');
    const offClose = client.onClose(() => setStatus('lost'));
    const offStatus = pipe?.onStatus((s) => setStatus(client.isClosed ? 'lost' : s));
    return () => {
      offClose();
      offStatus?.();
    };
  }, [client, pipe]);
  return status;
}

/** True once the connection to the core is gone for good. */
export function useDisconnected(client: RpcClient): boolean {
  return useConnectionStatus(client) === 'lost';
}

/**
 * Says the core is out of reach, in place of the views' own (now false) states: what is shown is how
 * it was, nothing can be done from here, and (when it is gone for good) how to get back.
 */
export function ConnectionBanner({ face, status = 'lost' }: { face?: string; status?: Exclude<ConnectionStatus, 'connected'> }) {
  if (status === 'reconnecting') {
    return (
      <div role="status" data-testid="reconnecting" className="flex items-center gap-3 border-b border-amber-400 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
        <span className="alive inline-block h-2 w-2 rounded-full bg-amber-600" aria-hidden />
        <p><span className="font-semibold">Disconnected — reconnecting…</span> Actions are off until the connection is back; nothing is lost.</p>
      </div>
    );
  }
  return (
    <div role="alert" data-testid="disconnected" className="flex flex-wrap items-center gap-3 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <p className="flex-1">
        <span className="font-semibold">Disconnected from the Erasmus core.</span> What you see is how it was when the connection ended; actions are off.{' '}
        {face === 'desktop' ? 'Reload the window to reconnect.' : 'Start it again (erasmus serve, with the same ERASMUS_HOME), then Reload: it serves this address again while its port is free; if it prints another address, open that one.'}
      </p>
      <button type="button" onClick={() => location.reload()} className="rounded border border-red-400 bg-white px-3 py-1 font-medium text-red-900 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-red-900 dark:text-red-50">
        Reload
      </button>
    </div>
  );
}
