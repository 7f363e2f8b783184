import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadAgentConfig } from '../agent/providers/config';
import { sessionBudgets } from '../agent/session';
import { getAgentDefaults, setAgentDefaults } from './agent-defaults';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-defaults-'));
  file = join(dir, 'config.yaml');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('budgets in dollars are saved in config.yaml beside comments, read back, and removed with null', async () => {
  writeFileSync(file, '# mine\ntoolMode: xml\n');
  expect(await getAgentDefaults(file)).toEqual({ toolMode: 'xml', approvals: 'non-destructive' });
  expect(await setAgentDefaults(file, { sessionBudgetUsd: 0.5, runBudgetUsd: 5 })).toEqual({ toolMode: 'xml', approvals: 'non-destructive', sessionBudgetUsd: 0.5, runBudgetUsd: 5 });
  expect(readFileSync(file, 'utf8')).toContain('# mine');
  expect(await loadAgentConfig(file)).toMatchObject({ sessionBudgetUsd: 0.5, runBudgetUsd: 5 });
  expect(await setAgentDefaults(file, { sessionBudgetUsd: null })).toEqual({ toolMode: 'xml', approvals: 'non-destructive', runBudgetUsd: 5 });
  expect(readFileSync(file, 'utf8')).not.toContain('sessionBudgetUsd');
  await expect(setAgentDefaults(file, { runBudgetUsd: -1 })).rejects.toThrow(/runBudgetUsd/);
  expect(await getAgentDefaults(file)).toMatchObject({ runBudgetUsd: 5 });
});

it("a session's own cost budget wins; the default applies only to a model with known prices", () => {
  expect(sessionBudgets({ maxTurns: 3 }, { sessionBudgetUsd: 1 }, true)).toEqual({ maxTurns: 3, maxCostUsd: 1 });
  expect(sessionBudgets({ maxCostUsd: 0.2 }, { sessionBudgetUsd: 1 }, true)).toEqual({ maxCostUsd: 0.2 });
  expect(sessionBudgets(undefined, { sessionBudgetUsd: 1 }, false)).toEqual({});
  expect(sessionBudgets(undefined, {}, true)).toEqual({});
});
