import { createContext, useContext } from 'react';
import type { RunController } from '../features/project/runController';
import type { ElicitationStore } from '../features/session/elicitationStore';
import type { SessionStore } from '../features/session/sessionStore';

/** The app's long-lived stores, created once per client (they keep listening while views come and go). */
export interface Services {
  run: RunController;
  sessions: SessionStore;
  /** Questions MCP servers ask the user (command approvals from the runners, forms). */
  elicitations: ElicitationStore;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices must be used inside <ServicesContext.Provider>');
  return s;
}
