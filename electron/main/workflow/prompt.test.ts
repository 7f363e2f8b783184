import { describe, expect, it } from 'vitest';
import { unfenceDocument } from '../../contract/handback';
import { buildStepPrompt, fenced } from './prompt';

const protocol = { name: 'development', description: 'd', toolsets: ['files'], done: 'It works.', prompt: 'You are the developer.', budget: { maxTurns: 5 }, source: 'builtin' } as unknown as Parameters<typeof buildStepPrompt>[0]['protocol'];

describe('step prompt documents', () => {
  it("fences every embedded document, so its headings are not the prompt's and its end is visible", () => {
    const prompt = buildStepPrompt({
      protocol,
      instruction: 'Implement it.',
      contextDocPath: '/h/ctx/a.md',
      contextDoc: '# Component: a\n\n## Tasks\n- [ ] A1: do\n\n## Notes\n```js\nx()\n```\n',
      references: [{ title: 'Architecture', text: '# Architecture\n\n## Purpose\nAdds.' }],
      testOutput: { command: 'npm test', exitCode: 1, output: 'fail\n```\nnot a fence end\n```' },
    });
    // The prompt's own sections are the only level-2 headings outside fences.
    const outside = prompt.replace(/^(`{3,})[^\n`]*\n[\s\S]*?\n\1$/gm, '');
    expect(outside.match(/^## .*/gm)).toEqual(['## Your task', '## Context document', '## Architecture', '## Last test run', '## Done when']);
    expect(prompt).toContain('its current text, between the fences:\n\n````markdown\n# Component: a\n');
    expect(prompt).toContain('x()\n```\n````');
    expect(prompt).toContain('## Last test run\n\n`npm test` exited with status 1\n\n````\nfail\n');
  });

  it("shows the documents without the stamp of the commit they describe (Erasmus's bookkeeping, kept when the step hands the text back)", () => {
    const stamp = '<!-- erasmus: describes commit 37dda42f61860e8a6b888ee0fd9257e0c79f98b2 -->';
    const prompt = buildStepPrompt({
      protocol,
      instruction: 'Review it.',
      contextDocPath: '/h/ctx/a.md',
      contextDoc: `# Component: a\n\n## Notes\n- done\n\n${stamp}\n`,
      references: [{ title: 'Architecture', text: `# Architecture\n\n${stamp}\n` }, { title: 'README.md (ours)', text: `# A\n\n${stamp}\n` }],
    });
    expect(prompt).toContain('- done\n```\n');
    expect(prompt).toContain('## Architecture\n\n```markdown\n# Architecture\n```\n');
    // A project file shown as it is (a merge step's side) keeps every line.
    expect(prompt.split(stamp)).toHaveLength(2);
  });

  it('a retry says why the run stopped at the step, as a sentence, and what the attempt wrote last', () => {
    const prompt = buildStepPrompt({ protocol, instruction: 'Do it.', contextDocPath: '/h/a.md', contextDoc: '', retryOf: 'tests still fail after 3 debugging attempts in a · debugging' });
    expect(prompt).toContain('This step ran before, and the run stopped there: tests still fail after 3 debugging attempts in a · debugging.\n\n');
    const said = buildStepPrompt({ protocol, instruction: 'Do it.', contextDocPath: '/h/a.md', contextDoc: '', retryOf: 'tests still fail', retrySaid: 'This needs a decision: keep accents?' });
    expect(said).toContain('the run stopped there: tests still fail.\n\nWhat it wrote last, before the run stopped (the user read it, then ran this step again):\n\n```\nThis needs a decision: keep accents?\n```\n\nWhatever it changed');
    // An attempt that changed nothing is not said to have changes kept.
    const none = buildStepPrompt({ protocol, instruction: 'Do it.', contextDocPath: '/h/a.md', contextDoc: '', retryOf: 'Erasmus stopped while it ran', retryChanges: { kind: 'diff', text: '' } });
    expect(none).toContain('It changed no file of the project: start from the project as it is now, and do what is still missing.');
    expect(none).not.toContain('is kept');
    // A step that only reads the project (design, schedule, review) is not told its changes are kept: it could make none
    // (played as the model: the design step killed and resumed read "Whatever it changed in the project then is kept").
    const readOnly = { ...protocol, name: 'design', access: 'read' } as typeof protocol;
    const design = buildStepPrompt({ protocol: readOnly, instruction: 'Write it.', contextDocPath: '/h/a.md', contextDoc: '', retryOf: 'Erasmus stopped while it ran' });
    expect(design).toContain('This step only reads the project, so that attempt changed nothing in it: do the whole step again, from the project as it is now.');
    expect(design).not.toMatch(/is kept|still missing/);
  });

  it("a retry with the user's answer quotes it, and says the steps after this one hear it only from the context document", () => {
    const answered = buildStepPrompt({ protocol, instruction: 'Do it.', contextDocPath: '/h/a.md', contextDoc: '', retryOf: 'it said it cannot finish', retrySaid: 'Cannot finish: JSON errors or tracebacks?', retryAnswer: ' Tracebacks, as today. ' });
    expect(answered).toContain("The user's answer, given with a retry of this step (it settles what the step stopped for; where it differs from the documents, the answer holds):\n\n```\nTracebacks, as today.\n```\n\nOnly this step hears the answer: what the steps after it must follow too, write into the context document you hand back.\n\n");
    // Without an answer, nothing is said of one.
    const plain = buildStepPrompt({ protocol, instruction: 'Do it.', contextDocPath: '/h/a.md', contextDoc: '', retryOf: 'it said it cannot finish' });
    expect(plain).not.toContain('Only this step hears');
  });

  it('says (empty) for an empty context document and reference', () => {
    const prompt = buildStepPrompt({ protocol, instruction: 'Write it.', contextDocPath: '/h/a.md', contextDoc: '  ', references: [{ title: 'Progress schedule', text: '' }] });
    expect(prompt).toContain('its current text: (empty)');
    expect(prompt).toContain('## Progress schedule\n\n(empty)');
  });

  it('fences with a run of backticks longer than any inside', () => {
    expect(fenced('a\n`````\nb')).toBe('``````markdown\na\n`````\nb\n``````');
    expect(fenced('plain', '')).toBe('```\nplain\n```');
  });

  it('a document handed back inside one fence is saved without it; anything else as it is', () => {
    expect(unfenceDocument('````markdown\n# Architecture\n\n```sh\nnpm test\n```\n````\n')).toBe('# Architecture\n\n```sh\nnpm test\n```\n');
    expect(unfenceDocument('```\n# Plan\n```')).toBe('# Plan\n');
    expect(unfenceDocument('# Plan\n\n```sh\nx\n```\n')).toBe('# Plan\n\n```sh\nx\n```\n');
    expect(unfenceDocument('```python\nprint(1)\n```')).toBe('```python\nprint(1)\n```');
    // Framed as the other steps frame their documents: the marker lines are not the document's (they were saved in it).
    expect(unfenceDocument('# Architecture\n\n## Testing\n`pytest`\n=== END CONTEXT DOCUMENT ===\n')).toBe('# Architecture\n\n## Testing\n`pytest`\n');
    expect(unfenceDocument('=== CONTEXT DOCUMENT ===\n```markdown\n# Plan\n```\n=== END CONTEXT DOCUMENT ===')).toBe('# Plan\n');
    expect(unfenceDocument('# Notes\nThe line `=== END CONTEXT DOCUMENT ===` ends a handback.\n')).toBe('# Notes\nThe line `=== END CONTEXT DOCUMENT ===` ends a handback.\n');
  });
});
