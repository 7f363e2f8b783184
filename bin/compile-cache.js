// A V8 code cache for the built CLI's own files (out/main/*.cjs), so a CLI start does not parse and compile its
// ~4 MB again: `erasmus --version` about 0.46 CPU-s as ES modules, 0.39 as CommonJS, about 0.3 with this cache.
// Node 20 has no compile cache of its own (module.enableCompileCache is Node 22), so CommonJS files under one
// folder are compiled through vm.Script with the cache V8 made the first time. The cache lives in the install's
// node_modules/.cache (never a shared temporary folder another user could fill; an install that cannot be written
// simply has none); one file per file content (its SHA-1), written whole then renamed, so processes that start
// together never read half a file; a cache V8 rejects (another Node, other flags) is made again.
// ERASMUS_COMPILE_CACHE=off turns it off.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import vm from 'node:vm';

const WEEK_MS = 7 * 24 * 3600_000;

/** Compiles every CommonJS file under `dir` with a V8 code cache kept in `cacheRoot`. */
export function useCompileCache(dir, cacheRoot) {
  if (process.env.ERASMUS_COMPILE_CACHE === 'off') return;
  const cacheDir = join(cacheRoot, `${process.version}-${process.arch}`);
  const toWrite = [];
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (!filename.startsWith(dir + sep) || !filename.endsWith('.cjs')) return compile.call(this, content, filename);
    const file = join(cacheDir, `${createHash('sha1').update(content).digest('hex')}.v8`);
    let cachedData;
    try {
      cachedData = readFileSync(file);
    } catch {}
    // No importModuleDynamically: code compiled from a cache loses it on Node 20, so the build turns every import()
    // into require() (electron.vite.config.ts, dynamicImportInCjs) and an import() here fails at once, cache or not.
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (!cachedData || script.cachedDataRejected) toWrite.push({ file, script });
    const require = createRequire(filename);
    return script.runInThisContext({ displayErrors: true }).call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  // At exit the cache holds the functions this run compiled too, not only the top level. A new cache is a new build:
  // the caches of builds not loaded for a week go.
  process.once('exit', () => {
    if (!toWrite.length) return;
    try {
      mkdirSync(cacheDir, { recursive: true });
      for (const f of readdirSync(cacheDir)) if (Date.now() - statSync(join(cacheDir, f)).atimeMs > WEEK_MS) rmSync(join(cacheDir, f), { force: true });
      for (const { file, script } of toWrite) {
        const part = `${file}.${process.pid}`;
        writeFileSync(part, script.createCachedData());
        renameSync(part, file);
      }
    } catch {}
  });
}
