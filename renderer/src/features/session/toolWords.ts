import { toolVerb } from '../../../../electron/contract/words';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const short = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * What a tool call did, in words ("Ran npm test", "Wrote src/a.ts", "Opened the filesystem toolset"),
 * from its name and arguments; the arguments as JSON stay one click away. `done: false` (a call running,
 * refused, denied or failed) says what it asks instead ("Edit README.md"): it did not do it.
 */
export function toolWords(name: string, args: Record<string, unknown>, done = true): string {
  const tool = name.includes('__') ? name.slice(name.indexOf('__') + 2) : name;
  const server = name.includes('__') ? name.slice(0, name.indexOf('__')) : '';
  if (name === 'open_toolset') return `${done ? 'Opened' : 'Open'} the ${str(args.name) ?? ''} toolset`.replace('  ', ' ');
  const command = str(args.command) ?? str(args.cmd) ?? str(args.script);
  if (command) return `${done ? 'Ran' : 'Run'} ${short(command)}`;
  const path = str(args.path) ?? str(args.file) ?? str(args.filePath);
  const verb = toolVerb(tool, done);
  if (path && verb) return `${verb} ${short(path)}`;
  const paths = Array.isArray(args.paths) ? args.paths.filter((p): p is string => typeof p === 'string') : [];
  if (paths.length && verb) return `${verb} ${paths.length} file${paths.length === 1 ? '' : 's'}`;
  const query = str(args.query) ?? str(args.pattern);
  if (query && verb) return `${verb} for “${short(query, 50)}”`;
  const words = tool.replace(/[_-]+/g, ' ');
  return server ? `${words} (${server})` : words;
}

/** A tool named for people (one map with the CLI and the engine's messages): `files__write_file` → the files tool “write file”. */
export { toolName } from '../../../../electron/contract/words';
