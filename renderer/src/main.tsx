import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { RpcClient } from './api/client';
import { ClientContext, ConnectionContext } from './api/context';
import { findPipe } from './api/pipes';
import { App } from './app/App';
import { ServicesContext } from './app/services';
import { RunController } from './features/project/runController';
import { SessionStore } from './features/session/sessionStore';
import { ElicitationStore } from './features/session/elicitationStore';

const root = createRoot(document.getElementById('root')!);

findPipe().then(
  (pipe) => {
    const client = new RpcClient(pipe);
    (window as unknown as { __erasmus?: RpcClient }).__erasmus = client;
    const services = { run: new RunController(client), sessions: new SessionStore(client), elicitations: new ElicitationStore(client) };
    root.render(
      <StrictMode>
        <ClientContext.Provider value={client}>
          <ConnectionContext.Provider value={'onStatus' in pipe ? pipe : null}>
            <ServicesContext.Provider value={services}>
              <App />
            </ServicesContext.Provider>
          </ConnectionContext.Provider>
        </ClientContext.Provider>
      </StrictMode>,
    );
  },
  (err: Error) => {
    root.render(<p role="alert" style={{ padding: 24 }}>{err.message}</p>);
  },
);
