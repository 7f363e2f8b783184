import { PtyManager } from '../../main/runners/pty/index';
import type { ScriptReviewer } from '../../main/runners/review/index';
import { createRunnersServer } from './server';
import type { Toolset } from './tool';
import { GuardedStdioServerTransport } from '../stdio-transport';

export interface RunnersStdioOptions {
  root: string;
  outputsDir: string;
  reviewer?: ScriptReviewer;
  toolsets?: readonly Toolset[];
  version?: string;
}

/**
 * Serves the runners over stdio until stdin closes; PTYs are this process's own and are stopped
 * (with their process trees) when it ends.
 */
export async function serveRunnersStdio(options: RunnersStdioOptions): Promise<void> {
  const ptys = new PtyManager({ outputsDir: options.outputsDir });
  const server = createRunnersServer({ root: options.root, ptys, reviewer: options.reviewer, toolsets: options.toolsets, version: options.version });
  const transport = new GuardedStdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  const stop = () => void shutdown();
  let done = false;
  const shutdown = async () => {
    if (done) return;
    done = true;
    await ptys.dispose();
    await server.close().catch(() => {});
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await closed;
  await shutdown();
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
}
