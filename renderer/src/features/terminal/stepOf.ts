import type { WorkflowRunView } from '../../../../electron/contract/index';
import { humanState } from '../project/labels';
import type { TerminalTab } from './store';

/**
 * The workflow step a terminal ran in: the run's step that was open in the tab's folder when the
 * tab started (one at a time per run and folder: a parallel run's components each have a worktree), in words ("adder · testing, attempt 2").
 */
export function stepNamer(view: Pick<WorkflowRunView, 'projectDir' | 'timeline'> | null): (tab: TerminalTab) => string | undefined {
  if (!view) return () => undefined;
  const attempts = new Map<string, number>();
  const steps = view.timeline.map((e) => {
    const n = (attempts.get(e.state) ?? 0) + 1;
    attempts.set(e.state, n);
    return { from: Date.parse(e.enteredAt), to: e.leftAt ? Date.parse(e.leftAt) : Infinity, worktree: e.worktree, name: `${humanState(e.state)}${n > 1 ? `, attempt ${n}` : ''}` };
  });
  const dir = view.projectDir;
  return (tab) => {
    if (tab.kind !== 'command' || !tab.startedAt || !tab.cwd || !(tab.cwd === dir || tab.cwd.startsWith(`${dir}/`))) return undefined;
    const at = tab.startedAt;
    // A parallel run's components run at once, each in its worktree: the tab's folder tells whose step it is.
    const mine = (s: (typeof steps)[number]) => (s.worktree ? tab.cwd === s.worktree || tab.cwd!.startsWith(`${s.worktree}/`) : !worktreeComponent(tab.cwd));
    return steps.findLast((s) => s.from <= at && at <= s.to && mine(s))?.name;
  };
}

/** The component whose worktree a tab ran in (a parallel run: `<project>/.git/erasmus/worktrees/<run>/<component>`). */
export const worktreeComponent = (cwd: string | undefined): string | undefined => /\/\.git\/erasmus\/worktrees\/[^/]+\/([^/]+)/.exec(cwd ?? '')?.[1];
