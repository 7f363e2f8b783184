import { walk, type ShellNode } from './parser';

/** One simple command as the parser saw it: `VAR=x name arg…`, wherever it sits in the line. */
export interface SimpleCommand {
  node: ShellNode;
  /** The command name node, or null for a bare assignment such as `X=1`. */
  name: ShellNode | null;
  args: ShellNode[];
  assignments: ShellNode[];
  /** True when the command reads the output of an earlier command in a pipeline. */
  pipedInto: boolean;
}

export interface Redirection {
  node: ShellNode;
  op: string;
  /** The destination word (file name), or null for heredocs and fd duplications without one. */
  target: ShellNode | null;
}

function simple(node: ShellNode): SimpleCommand {
  const name = node.childForFieldName('name');
  const args = node.childrenForFieldName('argument').filter((n): n is ShellNode => n !== null);
  const assignments = node.namedChildren.filter((n): n is ShellNode => n?.type === 'variable_assignment');
  let pipedInto = false;
  let child: ShellNode = node;
  let parent = node.parent;
  while (parent && parent.type === 'redirected_statement') {
    child = parent;
    parent = parent.parent;
  }
  if (parent?.type === 'pipeline') {
    const firstNamed = parent.namedChildren.find((n) => n !== null);
    pipedInto = firstNamed?.id !== child.id;
  }
  return { node, name: name?.namedChildren[0] ?? name, args, assignments, pipedInto };
}

/** Every simple command in the tree, substitutions and subshells included, in source order. */
export function simpleCommands(root: ShellNode): SimpleCommand[] {
  return [...walk(root)].filter((n) => n.type === 'command').map(simple);
}

/** Every file redirection in the tree (`>`, `>>`, `<`, `&>`, `>|`, `<>`, fd duplications). */
export function redirections(root: ShellNode): Redirection[] {
  const out: Redirection[] = [];
  for (const n of walk(root)) {
    if (n.type !== 'file_redirect') continue;
    const op = n.children.find((c) => c !== null && !c.isNamed)?.type ?? '';
    const target = n.childForFieldName('destination') ?? n.namedChildren.find((c) => c !== null && c.type !== 'file_descriptor') ?? null;
    out.push({ node: n, op, target });
  }
  return out;
}
