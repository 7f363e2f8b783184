import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'fs/promises', 'path', 'child_process', 'os', 'crypto', 'net', 'http', 'https', 'worker_threads', 'stream'];

export default tseslint.config(
  // tests/fixtures/projects: sample projects in their own style (a CommonJS library, say), as users have them.
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'tests/e2e/artifacts/**', 'tests/fixtures/projects/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  // Layering: electron only in the shell, the Electron entry and the preload.
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main/shell/**', 'electron/main/index.ts', 'electron/preload/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Bad layering: electron is imported only in electron/main/shell, electron/main/index.ts and electron/preload.' }] }],
    },
  },
  // The parts of the core never import a face.
  {
    files: ['electron/main/{api,mcp,agent,runners,workflow,checkpoints,secrets,sessions,paths,common,project,serve}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Bad layering: the core runs under plain Node.' }],
          patterns: [{ group: ['**/shell/**', '**/cli/**', '**/servers/**'], message: 'Bad layering: the core never imports a face (shell, cli, servers).' }],
        },
      ],
    },
  },
  // The contract is shared with the renderer: no Node, no electron.
  {
    files: ['electron/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['electron'], patterns: [{ group: nodeBuiltins, message: 'Bad layering: the contract runs in the renderer too.' }] }],
    },
  },
  // The renderer speaks only the contract: no Node modules, no electron.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron'],
          patterns: [
            { group: nodeBuiltins, message: 'Bad layering: the renderer never imports Node modules.' },
            { group: ['**/electron/main/**', '**/electron/preload/**', '**/electron/cli/**', '**/electron/servers/**'], message: 'Bad layering: the renderer talks to the core only through electron/contract.' },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', 'bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
);
