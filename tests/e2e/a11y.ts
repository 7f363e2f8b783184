import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
// Evaluated through the debugging protocol: the app's Content-Security-Policy (script-src 'self') stays as users get it.
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2 A/AA and best practices) on the page as it is, and returns the critical and
 * serious violations, each with the elements it found.
 */
export async function axeSerious(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const violations = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`)) as Array<{
    id: string;
    impact: string | null;
    help: string;
    nodes: Array<{ target: unknown[] }>;
  }>;
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => ({ id: v.id, impact: v.impact!, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')) }));
}
