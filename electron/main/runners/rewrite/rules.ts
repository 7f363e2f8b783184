import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The rewriting rules, as a table: each rule looks at one simple command (its static words) and
 * either returns the replacement argv or null. A replacement token is either a literal string or
 * the index of an original argument, whose source text (quoting included) is copied unchanged.
 * The first matching rule wins; rules are ordered from specific to general.
 */
export type RuleId =
  | 'python-venv'
  | 'pip-requirements'
  | 'pip-install'
  | 'pip-other'
  | 'python-module'
  | 'python'
  | 'npm-install'
  | 'npm'
  | 'npx';

export type Token = string | number;

export interface RuleInput {
  /** The static text of the command name and each argument (null when dynamic). */
  name: string;
  args: Array<string | null>;
  root: string;
  /** A single-file Python script that the same command line runs, if any (`python x.py`). */
  script: string | null;
}

export interface RewriteRule {
  id: RuleId;
  description: string;
  rewrite: (cmd: RuleInput) => Token[] | null;
}

const PYTHONS = new Set(['python', 'python3']);
const PIPS = new Set(['pip', 'pip3']);
const rest = (from: number, args: unknown[]): number[] => args.map((_a, i) => i).slice(from);
const hasPyproject = (root: string): boolean => existsSync(join(root, 'pyproject.toml'));

/** `pip …` or `python -m pip …`: the index where pip's own arguments start, or -1. */
function pipStart(cmd: RuleInput): number {
  if (PIPS.has(cmd.name)) return 0;
  if (PYTHONS.has(cmd.name) && cmd.args[0] === '-m' && cmd.args[1] === 'pip') return 2;
  return -1;
}

const isPackageSpec = (a: string | null): boolean => a !== null && /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?([<>=!~]=?[^\s]*)?$/.test(a);

export const REWRITE_RULES: readonly RewriteRule[] = [
  {
    id: 'python-venv',
    description: 'python -m venv DIR → uv venv DIR',
    rewrite: (c) => (PYTHONS.has(c.name) && c.args[0] === '-m' && c.args[1] === 'venv' ? ['uv', 'venv', ...rest(2, c.args)] : null),
  },
  {
    id: 'pip-requirements',
    description: 'pip install -r requirements.txt → uv pip install -r requirements.txt (uv sync when pyproject.toml is at the root)',
    rewrite: (c) => {
      const s = pipStart(c);
      if (s < 0 || c.args[s] !== 'install' || c.args.length !== s + 3 || c.args[s + 1] !== '-r' || c.args[s + 2] === null) return null;
      if (c.args[s + 2] === 'requirements.txt' && hasPyproject(c.root)) return ['uv', 'sync'];
      return ['uv', 'pip', 'install', '-r', s + 2];
    },
  },
  {
    id: 'pip-install',
    description: 'pip install PKG… → uv add PKG… (uv add --script FILE PKG… for a single-file script; uv pip install PKG… with neither)',
    rewrite: (c) => {
      const s = pipStart(c);
      const pkgs = c.args.slice(s + 1);
      if (s < 0 || c.args[s] !== 'install' || pkgs.length === 0 || !pkgs.every(isPackageSpec)) return null;
      const refs = rest(s + 1, c.args);
      if (hasPyproject(c.root)) return ['uv', 'add', ...refs];
      if (c.script) return ['uv', 'add', '--script', c.script, ...refs];
      return ['uv', 'pip', 'install', ...refs];
    },
  },
  {
    id: 'pip-other',
    description: 'any other pip command → uv pip …',
    rewrite: (c) => {
      const s = pipStart(c);
      return s >= 0 && c.args.length > s ? ['uv', 'pip', ...rest(s, c.args)] : null;
    },
  },
  {
    id: 'python-module',
    description: 'python -m MODULE … → uv run -m MODULE …',
    rewrite: (c) => (PYTHONS.has(c.name) && c.args[0] === '-m' && c.args.length > 1 ? ['uv', 'run', '-m', ...rest(1, c.args)] : null),
  },
  {
    id: 'python',
    description: 'python FILE.py … → uv run FILE.py …; any other python invocation → uv run python …',
    rewrite: (c) => {
      if (!PYTHONS.has(c.name)) return null;
      if (c.args[0] && /\.py$/.test(c.args[0])) return ['uv', 'run', ...rest(0, c.args)];
      return ['uv', 'run', 'python', ...rest(0, c.args)];
    },
  },
  {
    id: 'npm-install',
    description: 'npm install|i|add PKG… → pnpm add PKG…; npm ci → pnpm install --frozen-lockfile; npm uninstall → pnpm remove',
    rewrite: (c) => {
      if (c.name !== 'npm') return null;
      const sub = c.args[0];
      const hasPkg = c.args.slice(1).some((a) => a === null || !a.startsWith('-'));
      if ((sub === 'install' || sub === 'i' || sub === 'add') && hasPkg) return ['pnpm', 'add', ...rest(1, c.args)];
      if (sub === 'ci') return ['pnpm', 'install', '--frozen-lockfile', ...rest(1, c.args)];
      if (sub === 'uninstall' || sub === 'un' || sub === 'rm' || sub === 'remove') return ['pnpm', 'remove', ...rest(1, c.args)];
      return null;
    },
  },
  {
    id: 'npm',
    description: 'npm … → pnpm …',
    rewrite: (c) => (c.name === 'npm' ? ['pnpm', ...rest(0, c.args)] : null),
  },
  {
    id: 'npx',
    description: 'npx PKG … → pnpm dlx PKG … (npx -y/--yes dropped: pnpm dlx does not ask)',
    rewrite: (c) => {
      if (c.name !== 'npx') return null;
      const keep = rest(0, c.args).filter((i) => c.args[i] !== '-y' && c.args[i] !== '--yes');
      return ['pnpm', 'dlx', ...keep];
    },
  },
];
