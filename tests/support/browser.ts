import { mkdirSync, rmSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { CHROMIUM_ARGS, chromiumPath } from './chromium-options';
import { startServe, type ServeHandle } from './serve';

/** The shared Chromium's endpoint, when this file runs in the e2e project (see chromium-server.ts). */
function sharedEndpoint(): string {
  try {
    return inject('chromiumWsEndpoint') ?? '';
  } catch {
    return '';
  }
}

/**
 * Headless Chromium for one test file: a connection to the run's shared browser when there is one
 * (the e2e project's globalSetup), else Debian's Chromium launched with the flags this machine needs.
 * Either way `close()` ends it for this file: the connection's contexts and pages go with it.
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = sharedEndpoint();
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
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
    if (world.serve) rmSync(world.serve.home, { recursive: true, force: true });
  });
  return world;
}
