import { expect, it } from 'vitest';
import { checkpointLine, previewText } from './workflow-checkpoints';

const checkpoint = { id: '20261126T095537332Z-0982b7', at: '2026-11-26T09:55:37.333Z', state: 'cli:fixes', commit: '3c57d25de4aa', kind: 'step' } as never;

it('a checkpoint names the step it was taken before as the timeline does, and HEAD then', () => {
  expect(checkpointLine(checkpoint)).toBe('20261126T095537332Z-0982b7  2026-11-26T09:55:37.333Z  before cli · review fixes            HEAD 3c57d25d');
  expect(previewText({ checkpoint, files: [], commitsUndone: [], ignored: 1 } as never)).toBe(
    'Rewind to 20261126T095537332Z-0982b7: before cli · review fixes (2026-11-26T09:55:37.333Z)\nno file changes\n1 file or folder ignored by .gitignore is left as it is',
  );
});

it("a rewind to before the plan's approval says the run's branch goes, and that approving again makes it under the same name", () => {
  const text = previewText({ checkpoint, files: [], commitsUndone: [{ commit: 'abcdef1234', subject: 'build the core' }], branchRemoved: 'erasmus/a-core' } as never);
  expect(text).toContain("the run's branch erasmus/a-core is removed: it was made when the plan was approved, and approving the plan again makes it again under this name");
  expect(text).toContain('undoing the rewind brings the branch back');
});
