import { Core } from '../main/api/core';
import { appVersion } from '../main/paths/index';

/** The core as the CLI uses it: one per command invocation, disposed at the end. */
export function cliCore(): Core {
  return new Core({ face: 'cli', version: appVersion() });
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
