import { buildSync } from 'esbuild';
import { mkdirSync, renameSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
/** Inside the repository, so the bundle's imports of packages resolve from node_modules as the sources' do. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'erasmus-fixtures');
const built = new Map<string, string>();
/**
 * Packages loaded from node_modules, not bundled: native add-ons or WebAssembly files beside them, and DBOS with
 * its Postgres driver (loaded on demand by durable runs; DBOS names optional telemetry packages that are not installed).
 */
const NATIVE = ['keytar', 'node-pty', 'web-tree-sitter', 'tree-sitter-bash', 'electron', '@dbos-inc/dbos-sdk', 'pg'];

/**
 * A TypeScript fixture (e.g. tests/fixtures/runners-stdio.ts) bundled into one ES module, its packages too
 * (but NATIVE), for a test to spawn `node <bundle>` where it spawned `node --import tsx <fixture>`: the
 * tsx loader costs about 0.8 CPU-seconds per process, and loading the packages' few hundred files from
 * node_modules another 0.25 (conformance client: 1.3 -> 0.5 -> 0.2 CPU-s to load). Built
 * from the current sources once per test worker (~0.2 s) and written atomically, so workers that build
 * the same fixture at once never read half a file. The sources find Erasmus's root by walking up
 * (paths/app-root.ts), which holds from node_modules/.cache as it does from out/.
 */
export function bundledFixture(entry: string): string {
  const file = resolve(entry);
  const done = built.get(file);
  if (done) return done;
  mkdirSync(CACHE, { recursive: true });
  const out = join(CACHE, `${basename(file).replace(/\.[cm]?tsx?$/, '')}.mjs`);
  const tmp = `${out}.${process.pid}.tmp`;
  buildSync({
    entryPoints: [file],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: NATIVE,
    // Bundled CommonJS packages require Node's own modules: give the module a require of its own.
    banner: { js: "import { createRequire as __fixtureRequire } from 'node:module'; const require = __fixtureRequire(import.meta.url);" },
    outfile: tmp,
    logLevel: 'error',
  });
  renameSync(tmp, out);
  built.set(file, out);
  return out;
}
