import { expect, it } from 'vitest';
import { checkpointLine, previewText } from './workflow-checkpoints';

const checkpoint = { id: '20261126T095537332Z-0982b7', at: '2026-11-26T09:55:37.333Z', state: 'cli:fixes', commit: '3c57d25de4aa', kind: 'step' } as never;

it('a checkpoint names the step it was taken before as the timeline does, and HEAD then', () => {
  expect(checkpointLine(checkpoint)).toBe('20261126T095537332Z-0982b7  2026-11-26T09:55:37.333Z  before cli · review fixes            HEAD 3c57d25d');
  expect(previewText({ checkpoint, files: [], commitsUndone: [], ignored: 1 } as never)).toBe(
    'Rewind to 20261126T095537332Z-0982b7: before cli · review fixes (2026-11-26T09:55:37.333Z)\nno file changes\n1 file or folder ignored by .gitignore is left as it is',
  );
});
