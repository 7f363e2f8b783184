import { useEffect, useState } from 'react';
import type { RpcClient } from '../api/client';

/** True once the connection to the core is gone (the pipe closed: `erasmus serve` stopped, the window's core quit). */
export function useDisconnected(client: RpcClient): boolean {
  const [lost, setLost] = useState(client.isClosed);
  useEffect(() => {
    if (client.isClosed) setLost(true);
    return client.onClose(() => setLost(true));
  }, [client]);
  return lost;
}

/**
 * Says the core is gone, in place of the views' own (now false) states: what is shown is how it was,
 * nothing can be done from here, and how to get back.
 */
export function ConnectionBanner({ face }: { face?: string }) {
  return (
    <div role="alert" data-testid="disconnected" className="flex flex-wrap items-center gap-3 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <p className="flex-1">
        <span className="font-semibold">Disconnected from the Erasmus core.</span> What you see is how it was when the connection ended; actions are off.{' '}
        {face === 'desktop' ? 'Reload the window to reconnect.' : 'Start it again (erasmus serve) and open the address it prints; this page’s address will not work again.'}
      </p>
      <button type="button" onClick={() => location.reload()} className="rounded border border-red-400 bg-white px-3 py-1 font-medium text-red-900 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-red-900 dark:text-red-50">
        Reload
      </button>
    </div>
  );
}
