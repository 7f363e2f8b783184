import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (group, then project, isolated files first), then the longest files first, so no long file
 * starts last and leaves one core idle at the end. A file's length is its duration in this checkout's last run
 * (Vitest's cache), else tests/durations.json (seconds, from a whole run: `node scripts/slowest-tests.mjs --save`),
 * else 1 s. Files stay grouped by project: a shared worker is reused only by the next file of its project.
 * A file that failed last time still runs first.
 */
export class LongestFirstSequencer extends BaseSequencer {
  private table: Record<string, number> | undefined;

  private known(root: string): Record<string, number> {
    if (!this.table) {
      try {
        this.table = JSON.parse(readFileSync(join(root, 'tests', 'durations.json'), 'utf8')) as Record<string, number>;
      } catch {
        this.table = {};
      }
    }
    return this.table;
  }

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const cache = this.ctx.cache;
    const table = this.known(root);
    const facts = new Map(
      files.map((f) => {
        const file = relative(root, f.moduleId);
        const cached = cache.getFileTestResults(`${f.project.name}:${file}`);
        return [f, { failed: cached?.failed ?? false, ms: cached?.duration ?? (table[file] ?? 1) * 1000 }] as const;
      }),
    );
    return [...files].sort((a, b) => {
      const order = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (order !== 0) return order;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      if (a.project.config.isolate !== b.project.config.isolate) return a.project.config.isolate ? -1 : 1;
      const fa = facts.get(a)!;
      const fb = facts.get(b)!;
      if (fa.failed !== fb.failed) return fa.failed ? -1 : 1;
      return fb.ms - fa.ms;
    });
  }
}
