import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The folder holding Erasmus's package.json, found by walking up from this module. The same code
 * runs from source (tests), from `out/` (CLI, serve) and from the packaged app (asar).
 */
export function appRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'erasmus') return (cached = dir);
      } catch {
        // not ours; keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the Erasmus installation (package.json named "erasmus")');
    dir = up;
  }
}

/** `resources/` of the installation: protocols, prompts, catalog. */
export function resourcesDir(): string {
  return join(appRoot(), 'resources');
}

/** The built renderer (`out/renderer`). */
export function rendererDir(): string {
  return join(appRoot(), 'out', 'renderer');
}

export function appVersion(): string {
  return (JSON.parse(readFileSync(join(appRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
