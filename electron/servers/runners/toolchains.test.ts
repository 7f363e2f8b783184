import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listedToolchains, missingToolchainText } from './toolchains';

let root: string;
beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'erasmus-toolchains-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

const files = (...names: string[]) => names.forEach((n) => writeFileSync(join(root, n), ''));
const has = (...programs: string[]) => (p: string) => programs.includes(p);

describe('which toolchains the runners list', () => {
  it('a marker and its program on PATH: listed; a marker without the program: not listed', () => {
    files('pyproject.toml', 'Cargo.toml', 'Dockerfile');
    expect([...listedToolchains(root, has('git', 'uv', 'cargo', 'docker'))].sort()).toEqual(['bash', 'cargo', 'docker', 'git', 'uv']);
    expect([...listedToolchains(root, has('git', 'cargo'))].sort()).toEqual(['bash', 'cargo', 'git']);
  });

  it('pnpm only where the lockfile is pnpm\'s: an npm project (package.json, package-lock.json) gets no pnpm tools', () => {
    files('package.json', 'package-lock.json');
    expect(listedToolchains(root, has('git', 'pnpm')).has('pnpm')).toBe(false);
    files('pnpm-lock.yaml');
    expect(listedToolchains(root, has('git', 'pnpm')).has('pnpm')).toBe(true);
    expect(listedToolchains(root, has('git')).has('pnpm')).toBe(false);
  });

  it('a missing program is answered with how to install it', () => {
    expect(missingToolchainText('pnpm')).toMatch(/^Not run: pnpm is not installed on this machine .* corepack enable pnpm/);
    expect(missingToolchainText('cargo')).toContain('rustup');
  });
});
