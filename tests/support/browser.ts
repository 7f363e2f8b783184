import { mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startServe, type ServeHandle } from './serve';

/** Debian's Chromium, headless, with the flags this sandboxed machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Registers beforeAll/afterAll that start `erasmus serve` and Chromium for the enclosing describe,
 * and stop both after it. Read `world.serve` and `world.browser` inside the tests.
 */
export function useServeAndBrowser(artifacts: string): { serve: ServeHandle; browser: Browser } {
  const world = {} as { serve: ServeHandle; browser: Browser };
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    world.serve = await startServe();
    world.browser = await launchChromium();
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.serve?.stop();
  });
  return world;
}
