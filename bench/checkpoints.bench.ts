// Checkpoint cost in a big project (issue 22): 10,000 files / 200 MB, 10 of them changed between two
// checkpoints. Measured: the time of CheckpointStore.take and the disk it adds to the shadow
// repository, against baselines in the same run: bare `git add -A` + `git write-tree` in the same
// shadow repository (the walk and the two processes any git snapshot pays), and the bytes changed.
// Goals: ≤ 200 ms and ≤ 2× the changed bytes. On a loaded machine the baseline says how much is load.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointStore } from '../electron/main/checkpoints/store';
import { Paths } from '../electron/main/paths/index';

const DIRS = 100;
const PER_DIR = 100;
const SIZE = 20 * 1024; // 10,000 × 20 kB ≈ 200 MB
const CHANGED = 10;
const ROUNDS = 7;

const root = mkdtempSync(join(tmpdir(), 'erasmus-bench-ckpt-'));
const project = join(root, 'project');
const paths = new Paths(join(root, 'home'));

function du(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((n, name) => n + du(join(path, name)), 0);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  const t0 = performance.now();
  for (let d = 0; d < DIRS; d++) {
    const dir = join(project, `pkg${d}`);
    mkdirSync(dir, { recursive: true });
    // Incompressible content, so the disk figure is not flattered by zlib.
    for (let f = 0; f < PER_DIR; f++) writeFileSync(join(dir, `file${f}.bin`), randomBytes(SIZE));
  }
  execFileSync('git', ['init', '-q'], { cwd: project });
  console.log(`project: ${DIRS * PER_DIR} files, ${((DIRS * PER_DIR * SIZE) / 1e6).toFixed(0)} MB, written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const store = new CheckpointStore(paths);
  const gitDir = store.repo(project).gitDir;
  const t1 = performance.now();
  await store.take(project, { kind: 'step', state: 'first' });
  console.log(`first checkpoint (every file hashed): ${((performance.now() - t1) / 1000).toFixed(1)} s, ${(du(gitDir) / 1e6).toFixed(0)} MB`);
  await store.take(project, { kind: 'step', state: 'warm' }); // a second one with nothing changed warms the caches

  const times: number[] = [];
  const ratios: number[] = [];
  const walks: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let changed = 0;
    for (let i = 0; i < CHANGED; i++) {
      const bytes = randomBytes(SIZE);
      writeFileSync(join(project, `pkg${(round * 13 + i * 7) % DIRS}`, `file${(round * 31 + i) % PER_DIR}.bin`), bytes);
      changed += bytes.length;
    }
    const before = du(gitDir);
    const s = performance.now();
    await store.take(project, { kind: 'step', state: `round ${round}` });
    times.push(performance.now() - s);
    ratios.push((du(gitDir) - before) / changed);
    const w = performance.now();
    const gd = ['--git-dir', gitDir, '--work-tree', project];
    execFileSync('git', [...gd, 'add', '-A', '--', '.'], { cwd: project });
    execFileSync('git', [...gd, 'write-tree'], { cwd: project });
    walks.push(performance.now() - w);
  }
  const t = median(times);
  const r = Math.max(...ratios);
  console.log(`checkpoint with ${CHANGED} files changed (${ROUNDS} rounds):`);
  console.log(`  time:   median ${t.toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (goal ≤ 200 ms) ${t <= 200 ? 'ok' : 'ABOVE GOAL'}`);
  console.log(`  baseline bare \`git add -A\` + \`git write-tree\`: median ${median(walks).toFixed(0)} ms (checkpoint/baseline ${(t / median(walks)).toFixed(2)}×)`);
  console.log(`  disk:   added ${ratios.map((x) => x.toFixed(2)).join(', ')} × the changed bytes (${((CHANGED * SIZE) / 1024).toFixed(0)} kB); worst ${r.toFixed(2)}× (goal ≤ 2×) ${r <= 2 ? 'ok' : 'ABOVE GOAL'}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
