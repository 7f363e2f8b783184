import { Core } from '../main/api/core';
import { appVersion } from '../main/paths/index';

/** The core as the CLI uses it: one per command invocation, disposed at the end. */
export function cliCore(): Core {
  return new Core({
    face: 'cli',
    version: appVersion(),
    host: {
      // A remote server asks for OAuth sign-in: the link goes to the terminal, and the command waits for the browser to come back.
      async openAuthorization(server, url) {
        if (!process.stdin.isTTY || !process.stderr.isTTY)
          throw new Error('no terminal to show the sign-in link on; run `erasmus servers` in a terminal, or sign in from the Servers view (the sign-in is kept in the keychain for every face)');
        process.stderr.write(`MCP server "${server}" asks you to sign in. Open this link in a browser (Erasmus waits for it to come back):\n  ${url}\n`);
      },
    },
  });
}

/** Runs `fn` with a fresh core and always disposes it (children, sockets, PTYs). */
export async function withCore<T>(fn: (core: Core) => Promise<T>): Promise<T> {
  const core = cliCore();
  try {
    return await fn(core);
  } finally {
    await core.dispose();
  }
}

/** Reads all of stdin as text (for secrets and piped input). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
