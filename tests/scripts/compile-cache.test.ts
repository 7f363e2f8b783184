import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const hook = pathToFileURL(resolve(__dirname, '../../bin/compile-cache.js')).href;
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A built-like folder (main/app.cjs requiring chunks/part.cjs) and a node that loads it through the hook, as bin/erasmus.js does. */
function setup(): { run: (env?: Record<string, string>) => { out: string; status: number | null }; cache: string } {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-compile-cache-'));
  mkdirSync(join(dir, 'main', 'chunks'), { recursive: true });
  writeFileSync(join(dir, 'main', 'chunks', 'part.cjs'), 'exports.where = __dirname;\nexports.twice = (n) => n * 2;\n');
  writeFileSync(join(dir, 'main', 'app.cjs'), "const part = require('./chunks/part.cjs');\nexports.answer = part.twice(21);\nexports.where = part.where;\nexports.path = require('node:path').sep;\n");
  const cache = join(dir, 'cache');
  const script = `import { useCompileCache } from ${JSON.stringify(hook)};
import { createRequire } from 'node:module';
useCompileCache(${JSON.stringify(join(dir, 'main'))}, ${JSON.stringify(cache)});
const app = createRequire(import.meta.url)(${JSON.stringify(join(dir, 'main', 'app.cjs'))});
console.log(JSON.stringify(app));`;
  const run = (env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ...env } });
    return { out: r.stdout.trim() + r.stderr, status: r.status };
  };
  return { run, cache };
}

const cacheFiles = (cache: string) => readdirSync(cache, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.v8'));

describe('the CLI compile cache (bin/compile-cache.js)', () => {
  it('loads the built files as CommonJS modules, keeps one cache per file, and loads them from it the next time', () => {
    const { run, cache } = setup();
    const expected = JSON.stringify({ answer: 42, where: join(dir!, 'main', 'chunks'), path: '/' });
    expect(run()).toEqual({ out: expected, status: 0 });
    expect(cacheFiles(cache)).toHaveLength(2);
    // A second run reads them (V8 accepts them: none is written again) and behaves the same.
    const stamps = () => cacheFiles(cache).map((f) => statSync(join(cache, f)).mtimeMs);
    const before = stamps();
    expect(run()).toEqual({ out: expected, status: 0 });
    expect(stamps()).toEqual(before);
  });

  it('ERASMUS_COMPILE_CACHE=off loads the same without a cache', () => {
    const { run, cache } = setup();
    expect(run({ ERASMUS_COMPILE_CACHE: 'off' }).status).toBe(0);
    expect(() => readdirSync(cache)).toThrow();
  });
});
