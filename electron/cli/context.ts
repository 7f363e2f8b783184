import { Core } from '../main/api/core';
import { appVersion } from '../main/paths/index';

let masked = false;

/**
 * Every secret the core reads (keychain values behind `${secret:…}`) is masked in whatever the
 * command prints, on stdout and stderr alike: `erasmus call`, `chat --json`, warnings.
 */
function maskOutput(core: Core): void {
  if (masked) return;
  masked = true;
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) =>
      write(typeof chunk === 'string' ? core.redactor.redact(chunk) : chunk instanceof Uint8Array && core.redactor.size ? core.redactor.redact(Buffer.from(chunk).toString('utf8')) : chunk, ...rest)) as typeof stream.write;
  }
}

/** The core as the CLI uses it: one per command invocation, disposed at the end. */
export function cliCore(): Core {
  const core = new Core({
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
  maskOutput(core);
  return core;
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
