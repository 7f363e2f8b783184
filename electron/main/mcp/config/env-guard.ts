/**
 * Environment variables a project file may not set for a child it starts: each one makes the child
 * (or every program it runs) load code the repository chose. Goose keeps a similar list.
 */
const BLOCKED_EXACT = new Set([
  'PATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'GEM_HOME',
  'GEM_PATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXEC_PATH',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'GIT_PAGER',
  'HOME',
  'ERASMUS_HOME',
  'ELECTRON_RUN_AS_NODE',
]);
const BLOCKED_PREFIX = ['LD_', 'DYLD_', 'GIT_CONFIG', 'NPM_CONFIG_', 'npm_config_'];

export function isBlockedEnv(name: string): boolean {
  return BLOCKED_EXACT.has(name) || BLOCKED_EXACT.has(name.toUpperCase()) || BLOCKED_PREFIX.some((p) => name.startsWith(p) || name.toUpperCase().startsWith(p.toUpperCase()));
}

export function blockedEnvNames(env: Record<string, string>): string[] {
  return Object.keys(env).filter(isBlockedEnv);
}
