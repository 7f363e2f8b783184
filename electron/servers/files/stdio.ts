import { createFilesServer, type FilesServerOptions } from './server';
import { GuardedStdioServerTransport } from '../stdio-transport';

/** Runs the files server over stdio until stdin closes; logs go to stderr only. */
export async function runFilesServerStdio(options: FilesServerOptions): Promise<void> {
  const server = createFilesServer({ log: (line) => process.stderr.write(`erasmus files server: ${line}\n`), ...options });
  const transport = new GuardedStdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stderr.write(`erasmus files server: serving ${options.root} over stdio\n`);
  process.stdin.on('end', () => void server.close());
  await closed;
}
