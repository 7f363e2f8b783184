import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPipePair, RpcClient } from '../../contract/index';
import { Core, type CoreOptions } from './core';

export interface ConnectedCore {
  home: string;
  core: Core;
  /** The contract's client over an in-memory pipe bound to the core, as a face would use it. */
  client: RpcClient;
  /** Closes the client, disposes the core (children, PTYs, sockets) and removes the temp home. */
  dispose(): Promise<void>;
}

/** For tests of the contract: a real core in a temp ERASMUS_HOME with a client connected to it. */
export function connectedCore(prefix: string, options: Partial<CoreOptions> = {}): ConnectedCore {
  const home = realpathSync(mkdtempSync(join(tmpdir(), `erasmus-${prefix}-`)));
  const core = new Core({ face: 'browser', home, ...options });
  const [a, b] = createPipePair();
  core.connect(a);
  const client = new RpcClient(b);
  return {
    home,
    core,
    client,
    async dispose() {
      client.close();
      await core.dispose();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
