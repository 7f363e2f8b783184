import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

interface Chunk {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
}

/**
 * A Vite plugin that prints the renderer's JavaScript size after a build: the gzipped JS the first view
 * loads (entry chunks and their static imports), the lazily loaded chunks, and CSS. A first view over
 * `budget` fails the build, so the first view's JS stays under it (300 kB gzipped for the renderer).
 */
export function bundleSize(options: { budget?: number; log?: (line: string) => void } = {}): Plugin {
  const budget = options.budget ?? 1024 * 1024;
  const log = options.log ?? ((line: string) => console.log(line));
  return {
    name: 'erasmus-bundle-size',
    apply: 'build',
    generateBundle(_out, bundle) {
      const outputs = Object.values(bundle);
      const chunks = outputs.filter((o): o is typeof o & Chunk => o.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const first = new Set<string>();
      const visit = (c: Chunk | undefined) => {
        if (!c || first.has(c.fileName)) return;
        first.add(c.fileName);
        for (const i of c.imports) visit(byName.get(i));
      };
      for (const c of chunks) if (c.isEntry) visit(c);
      const gz = (data: string | Uint8Array) => gzipSync(typeof data === 'string' ? Buffer.from(data) : data).length;
      let firstGz = 0;
      let firstRaw = 0;
      let lazyGz = 0;
      let cssGz = 0;
      const lazy: string[] = [];
      for (const c of chunks) {
        const g = gz(c.code);
        if (first.has(c.fileName)) {
          firstGz += g;
          firstRaw += c.code.length;
        } else {
          lazyGz += g;
          lazy.push(`${c.fileName} ${kb(g)}`);
        }
      }
      for (const a of outputs) if (a.type === 'asset' && a.fileName.endsWith('.css')) cssGz += gz(a.source);
      const verdict = firstGz <= budget ? `under the ${kb(budget)} goal` : `OVER the ${kb(budget)} goal`;
      log(`renderer bundle: first view JS ${kb(firstGz)} gzipped (${kb(firstRaw)} raw, ${first.size} chunk${first.size === 1 ? '' : 's'}), ${verdict}`);
      log(`renderer bundle: lazy JS ${kb(lazyGz)} gzipped${lazy.length ? ` (${lazy.join(', ')})` : ''}; CSS ${kb(cssGz)} gzipped`);
      if (firstGz > budget) this.error(`the first view's JS is ${kb(firstGz)} gzipped, over the ${kb(budget)} budget: load the new code lazily (import()) or drop a dependency`);
    },
  };
}
