import { describe, expect, it } from 'vitest';
import { unplannedWarning } from '../../contract/words';
import { planText } from '../../cli/commands/workflow-print';
import { architectureComponents, withUnplanned } from './architecture-components';

describe('the components an architecture names', () => {
  it('are read from its section about components: sub-headings, list items and table rows, in the forms models write', () => {
    const doc = [
      '# Architecture',
      '',
      'A small CLI tool. It uses `node:test` and lives in src/.',
      '',
      '## Components',
      '',
      '### 1. `upper` — uppercases',
      'Interface: `upper(s)` in `src/upper.js`.',
      '',
      '### Component: rev',
      '- Interface: `rev(s)`',
      '',
      '### **wc** (src/wc.js)',
      '',
      '### cli — the command line',
      '',
      '## Data flow',
      '',
      '- `argv` → cli → the functions',
    ].join('\n');
    expect(architectureComponents(doc)).toEqual(['upper', 'rev', 'wc', 'cli']);
    const lists = '# Architecture\n\n## Modules\n\n- **parser** (src/parser.js): reads\n- `render`: writes\n- src/util.js: helpers\n1. store — keeps\n\n| Component | File |\n|---|---|\n| `cache` | src/cache.js |\n\n```\n### `notone`\n```\n';
    expect(architectureComponents(lists)).toEqual(['parser', 'render', 'store', 'cache']);
    // Prose without such a section names none.
    expect(architectureComponents('# Architecture\n\nOne component, **adder**: `add(a, b)` in src/adder.mjs.\n')).toEqual([]);
  });

  it('the task list leaves out are the plan\'s unplanned ones, and plan review says what that means (CLI)', () => {
    const plan = { components: [{ id: 'upper', title: 'Upper', tasks: [{ id: 'U1', title: 'do', status: 'todo' as const }] }], maxDebugAttempts: 3 };
    const arch = '# Architecture\n\n## Components\n\n### `upper`\n\n### `CLI`\n\n### `wc`\n';
    const withThem = withUnplanned(plan, arch);
    expect(withThem.unplanned).toEqual(['wc']); // `CLI` is no id (ids are lowercase)
    expect(withUnplanned({ ...withThem, components: [...plan.components, { id: 'wc', title: 'wc', tasks: [] }] }, arch).unplanned).toBeUndefined();
    expect(unplannedWarning(['wc', 'cli'])).toBe(
      'The architecture names components the task list has no section for: `wc`, `cli`. This run builds none of them. If they are to be built, add their tasks to the task list (a "## Component: id" section each) before you confirm; if they exist already and need no change, confirm the plan as it is.',
    );
    expect(planText(withThem)).toContain('\nwarning: The architecture names a component the task list has no section for: `wc`. This run builds none of it. If it is to be built, add its tasks');
    expect(planText(plan)).not.toContain('warning');
  });
});
