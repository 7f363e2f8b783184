import { createContext, useContext } from 'react';
import type { RpcClient } from './client';
import type { StatusPipe } from './pipes';

export const ClientContext = createContext<RpcClient | null>(null);

export function useClient(): RpcClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient must be used inside <ClientContext.Provider>');
  return client;
}

/** The pipe under the client when it reconnects on its own (browser mode's WebSocket); null otherwise. */
export const ConnectionContext = createContext<StatusPipe | null>(null);
