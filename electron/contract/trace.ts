import type { TestCaseResult } from './methods/workflow';

/**
 * The convention that ties a task to its tests: a test verifies a task when its name begins with the
 * task's id (`CORE-1: lowercases words`), or when a suite around it (describe block, test class,
 * parent go test) does. Compared loosely so languages whose test names cannot hold "-" or ":" follow
 * it too: case and punctuation aside, and a leading `test`/`Test` dropped (`test_CORE_1_lowercases`,
 * `class TestCORE_1`, `TestCORE_1_Lowercases`). `CORE-1` never matches `CORE-10`.
 */
function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function begins(label: string, id: string): boolean {
  const want = norm(id);
  if (!want) return false;
  const n = norm(label);
  const candidates = [n, n.replace(/^test_?/, '')];
  return candidates.some((c) => c === want || c.startsWith(`${want}_`));
}

/** Whether the test names the task (itself or a suite around it). */
export function namesTask(test: Pick<TestCaseResult, 'name' | 'suite'>, taskId: string): boolean {
  const labels = [test.name, ...(test.suite ? test.suite.split(' > ') : [])];
  return labels.some((l) => begins(l, taskId));
}

/** Each task's tests among the results (several tests may name one task). */
export function traceTasks(taskIds: string[], tests: TestCaseResult[]): Map<string, TestCaseResult[]> {
  return new Map(taskIds.map((id) => [id, tests.filter((t) => namesTask(t, id))]));
}

/** The tasks without at least one passing test that names them. */
export function tasksWithoutPassingTest(taskIds: string[], tests: TestCaseResult[]): string[] {
  return [...traceTasks(taskIds, tests)].filter(([, ts]) => !ts.some((t) => t.passed)).map(([id]) => id);
}
