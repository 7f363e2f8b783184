import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * The shell parser: tree-sitter's bash grammar (tree-sitter-bash, maintained by the tree-sitter
 * organisation) run as WebAssembly through web-tree-sitter, so it needs no native build and no
 * Electron ABI match. It gives a full syntax tree with positions (chains, pipelines, subshells,
 * `$(…)`, backticks, redirections, heredocs, quoting) and marks what it cannot parse with ERROR or
 * MISSING nodes, which callers treat as "not understood".
 *
 * Loading the grammar is asynchronous (once per process); parsing is synchronous after that.
 */
export type { Node as ShellNode, Tree as ShellTree };

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

function load(): Promise<Parser> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    await Parser.init();
    const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(bash);
    loaded = parser;
    return parser;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Parses a shell command line. The caller owns the tree and must `delete()` it (see withShellTree). */
export async function parseShell(source: string): Promise<Tree> {
  const parser = await load();
  const tree = parser.parse(source);
  if (!tree) throw new Error('the shell parser returned no tree');
  return tree;
}

/** Ensures the grammar is loaded, so that parseShellSync can be used. */
export async function loadShellParser(): Promise<void> {
  await load();
}

/** Parses synchronously; only after loadShellParser() (or any parseShell) has finished. */
export function parseShellSync(source: string): Tree {
  if (!loaded) throw new Error('the shell parser is not loaded yet (await loadShellParser() first)');
  const tree = loaded.parse(source);
  if (!tree) throw new Error('the shell parser returned no tree');
  return tree;
}

/** Parses, hands the tree to `fn`, and frees the tree's WebAssembly memory afterwards. */
export async function withShellTree<T>(source: string, fn: (tree: Tree) => T): Promise<T> {
  const tree = await parseShell(source);
  try {
    return fn(tree);
  } finally {
    tree.delete();
  }
}

/** Every node under `root` (root included), depth first, in source order. */
export function* walk(root: Node): Generator<Node> {
  yield root;
  for (const child of root.children) if (child) yield* walk(child);
}

/** Whether a node or anything under it failed to parse. */
export function hasParseError(root: Node): boolean {
  return root.hasError || [...walk(root)].some((n) => n.isMissing || n.isError);
}
