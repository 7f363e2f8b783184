/** Quotes one argument for a POSIX shell: bare when it is plainly safe, else in single quotes. */
export function q(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Quotes and joins an argument vector. */
export function argv(args: readonly string[]): string {
  return args.map(q).join(' ');
}
