import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Watches config files (through their folders, so files created or replaced atomically are seen)
 * and calls `onChange` once per burst of changes.
 */
export class ConfigWatcher {
  private readonly watchers: FSWatcher[] = [];
  private timer?: NodeJS.Timeout;

  constructor(files: string[], onChange: () => void, debounceMs = 150) {
    const byDir = new Map<string, Set<string>>();
    for (const f of files) {
      const names = byDir.get(dirname(f)) ?? new Set<string>();
      names.add(basename(f));
      byDir.set(dirname(f), names);
    }
    for (const [dir, names] of byDir) {
      try {
        const w = watch(dir, { persistent: false }, (_event, name) => {
          if (name && !names.has(name.toString())) return;
          clearTimeout(this.timer);
          this.timer = setTimeout(onChange, debounceMs);
        });
        w.on('error', () => {});
        this.watchers.push(w);
      } catch {
        // The folder does not exist yet; nothing to watch there.
      }
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers.length = 0;
  }
}
