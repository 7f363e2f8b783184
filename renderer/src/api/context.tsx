import { createContext, useContext } from 'react';
import type { RpcClient } from './client';

export const ClientContext = createContext<RpcClient | null>(null);

export function useClient(): RpcClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient must be used inside <ClientContext.Provider>');
  return client;
}
