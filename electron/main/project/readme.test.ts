import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { goalFromReadme, readmeGoal } from './readme';

describe('goalFromReadme', () => {
  it('takes the title and the first paragraph, skipping badges, HTML and markup', () => {
    const md = [
      '# tally',
      '',
      '[![CI](https://x/badge.svg)](https://x) ![npm](https://y.svg)',
      '<p align="center"><img src="logo.png"></p>',
      '',
      'A **command-line** tool that counts words in `stdin`',
      'and prints a [histogram](https://en.wikipedia.org/wiki/Histogram).',
      '',
      '## Install',
      'npm i tally',
    ].join('\n');
    expect(goalFromReadme(md)).toBe('tally: A command-line tool that counts words in stdin and prints a histogram.');
  });

  it('does not repeat a title the paragraph starts with, and reads setext titles', () => {
    expect(goalFromReadme('# Adder\n\nAdder adds two numbers.\n')).toBe('Adder adds two numbers.');
    expect(goalFromReadme('Adder\n=====\n\nAdds two numbers, with tests.\n')).toBe('Adder: Adds two numbers, with tests.');
  });

  it('skips code blocks and stops at the next heading', () => {
    expect(goalFromReadme('# x\n\n```sh\nnpm i x\n```\n\n## Usage\nignored')).toBe('x');
    expect(goalFromReadme('# y\n\n## Overview\n\nDoes y.\n')).toBe('y: Does y.');
    expect(goalFromReadme('```\ncode only\n```\n')).toBeUndefined();
    expect(goalFromReadme('')).toBeUndefined();
  });

  it('cuts a long introduction at 600 characters with an ellipsis', () => {
    const goal = goalFromReadme(`# long\n\n${'word '.repeat(400)}`)!;
    expect(goal.length).toBe(600);
    expect(goal.endsWith('…')).toBe(true);
  });
});

describe('readmeGoal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'erasmus-readme-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads README.md of a folder and names the file', async () => {
    await writeFile(join(dir, 'README.md'), '# notes\n\nA tiny notes app for the terminal.\n');
    expect(await readmeGoal(dir)).toEqual({ file: 'README.md', goal: 'notes: A tiny notes app for the terminal.' });
  });

  it('is undefined for a fresh folder, a README folder, or a README with no prose', async () => {
    expect(await readmeGoal(dir)).toBeUndefined();
    await mkdir(join(dir, 'README.md'));
    expect(await readmeGoal(dir)).toBeUndefined();
    await writeFile(join(dir, 'README'), '![logo](logo.png)\n');
    expect(await readmeGoal(dir)).toBeUndefined();
  });
});
