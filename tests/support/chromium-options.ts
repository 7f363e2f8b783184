/** Debian's Chromium (or CHROMIUM_PATH). */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags this sandboxed machine needs. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's Playwright endpoint (tests/support/chromium-server.ts); '' when it could not start. */
    chromiumWsEndpoint: string;
  }
}
