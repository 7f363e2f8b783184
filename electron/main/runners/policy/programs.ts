import { hasFlag, splitOptions, texts } from './flags';
import { cp, find, mv, rm, rmdir, rsync, shred } from './removal';
import { existingFile } from './targets';
import type { Finding, ProgramCall, ProgramCheck } from './types';

const approve = (reason: string): Finding => ({ verdict: 'approve', reason });
const always = (reason: string): ProgramCheck => () => [approve(reason)];
const line = (call: ProgramCall): string => [call.name, ...call.args.map((a) => a.raw)].join(' ');

const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

function gitSub(call: ProgramCall): { sub: string | null; rest: ProgramCall['args'] } {
  let i = 0;
  while (i < call.args.length) {
    const t = call.args[i]?.word?.text;
    if (t === undefined) return { sub: null, rest: [] };
    if (!t.startsWith('-')) return { sub: t, rest: call.args.slice(i + 1) };
    i += GIT_GLOBAL_WITH_VALUE.has(t) ? 2 : 1;
  }
  return { sub: null, rest: [] };
}

const git: ProgramCheck = (call) => {
  const { sub, rest } = gitSub(call);
  if (sub === null) return call.args.some((a) => !a.word) ? [approve(`git subcommand decided at run time: ${line(call)}`)] : [];
  const { options, operands } = splitOptions(rest);
  const t = (texts(rest) ?? []).join(' ');
  const reason = (what: string): Finding[] => [approve(`${what}: ${line(call)}`)];
  switch (sub) {
    case 'push':
      if (hasFlag(options, 'fd', '--force', '--force-with-lease', '--force-if-includes', '--mirror', '--delete', '--prune')) return reason('git push that rewrites or deletes remote history');
      if (operands.some((a) => a.word && /^[+:]/.test(a.word.text))) return reason('git push with a forced or deleting refspec');
      return [];
    case 'reset':
      return hasFlag(options, '', '--hard', '--merge', '--keep') ? reason('git reset that discards work') : [];
    case 'clean':
      return hasFlag(options, 'n', '--dry-run') ? [] : reason('git clean deletes untracked files');
    case 'checkout':
      return hasFlag(options, 'f', '--force') || rest.some((a) => a.word?.text === '--' || a.word?.text === '.') ? reason('git checkout that discards local changes') : [];
    case 'restore':
      return hasFlag(options, '', '--staged') && !hasFlag(options, 'W', '--worktree') ? [] : reason('git restore discards local changes');
    case 'branch':
      return hasFlag(options, 'D', '--delete') ? reason('git branch deletion') : [];
    case 'stash':
      return /^(drop|clear)\b/.test(t) ? reason('git stash drop/clear loses stashed work') : [];
    case 'rm':
      return hasFlag(options, 'r') ? reason('git rm -r removes a tree of files') : [];
    case 'filter-branch':
    case 'filter-repo':
      return reason('history rewrite');
    case 'reflog':
      return /^(expire|delete)\b/.test(t) ? reason('git reflog expiry loses recovery points') : [];
    case 'gc':
      return options.some((o) => o.startsWith('--prune')) ? reason('git gc --prune drops unreachable objects') : [];
    case 'update-ref':
      return hasFlag(options, 'd') ? reason('git update-ref -d deletes a ref') : [];
    case 'worktree':
      return /^remove\b/.test(t) && hasFlag(options, 'f', '--force') ? reason('git worktree remove --force') : [];
    default:
      return [];
  }
};

const DOCKER_DESTROY: Array<[RegExp, string]> = [
  [/^(rm|rmi|kill)\b/, 'removes containers or images'],
  [/^(container|image|volume|network|builder|buildx) (rm|remove|prune|kill)\b/, 'removes docker objects'],
  [/^(system|image|container|volume|network|builder) prune\b/, 'prunes docker objects'],
  [/^compose (down|rm)\b.*(-v|--volumes|--rmi|-f)\b/, 'removes compose volumes or images'],
];

const docker: ProgramCheck = (call) => {
  const words = (texts(call.args) ?? call.args.map((a) => a.word?.text ?? '?')).filter((w, i, all) => !(w.startsWith('-') && i < all.findIndex((x) => !x.startsWith('-'))));
  const t = words.join(' ');
  const hit = DOCKER_DESTROY.find(([re]) => re.test(t));
  return hit ? [approve(`${call.name} ${hit[1]}: ${line(call)}`)] : [];
};

const recursiveMode: ProgramCheck = (call) => (hasFlag(splitOptions(call.args).options, 'R', '--recursive') ? [approve(`recursive ${call.name}: ${line(call)}`)] : []);

const dd: ProgramCheck = (call) => (call.args.some((a) => !a.word || a.word.text.startsWith('of=')) ? [approve(`dd writes raw blocks: ${line(call)}`)] : []);

const tee: ProgramCheck = (call) => {
  const { options, operands } = splitOptions(call.args);
  if (hasFlag(options, 'a', '--append')) return [];
  return operands.filter((a) => !a.word || existingFile(a.word, call.env)).map((a) => approve(`tee overwrites ${a.raw}`));
};

const kill: ProgramCheck = (call) => {
  // `kill -1` alone, or `-1` after a signal (`kill -9 -1`), targets every process the user can reach.
  const i = call.args.findIndex((a) => a.word?.text === '-1');
  return i > 0 || (i === 0 && call.args.length === 1) ? [approve(`kill -1 signals every process: ${line(call)}`)] : [];
};

const systemctl: ProgramCheck = (call) => (call.args.some((a) => /^(poweroff|reboot|halt|kexec|suspend|hibernate|stop|disable|mask|kill|isolate)$/.test(a.word?.text ?? '')) ? [approve(`systemctl changes running services: ${line(call)}`)] : []);

const crontab: ProgramCheck = (call) => (hasFlag(splitOptions(call.args).options, 'r') ? [approve('crontab -r deletes the crontab')] : []);

const packageManager: ProgramCheck = (call) => (call.args.some((a) => a.word?.text === 'unpublish') ? [approve(`${call.name} unpublish removes a published package`)] : []);

/** The programs the policy knows to be destructive, by name. Anything else runs. */
export const PROGRAMS: ReadonlyMap<string, ProgramCheck> = new Map<string, ProgramCheck>([
  ['rm', rm],
  ['rmdir', rmdir],
  ['unlink', rmdir],
  ['shred', shred],
  ['srm', shred],
  ['wipe', shred],
  ['mv', mv],
  ['cp', cp],
  ['find', find],
  ['rsync', rsync],
  ['git', git],
  ['docker', docker],
  ['podman', docker],
  ['dd', dd],
  ['chmod', recursiveMode],
  ['chown', recursiveMode],
  ['chgrp', recursiveMode],
  ['setfacl', recursiveMode],
  ['tee', tee],
  ['truncate', always('truncate cuts files')],
  ['mkfs', always('mkfs formats a file system')],
  ['mke2fs', always('mke2fs formats a file system')],
  ['mkswap', always('mkswap formats a device')],
  ['wipefs', always('wipefs erases file-system signatures')],
  ['fdisk', always('fdisk edits partition tables')],
  ['sfdisk', always('sfdisk edits partition tables')],
  ['gdisk', always('gdisk edits partition tables')],
  ['sgdisk', always('sgdisk edits partition tables')],
  ['parted', always('parted edits partition tables')],
  ['blkdiscard', always('blkdiscard erases a device')],
  ['cryptsetup', always('cryptsetup changes encrypted devices')],
  ['mount', always('mount changes the file-system tree')],
  ['umount', always('umount changes the file-system tree')],
  ['chattr', always('chattr changes file attributes')],
  ['kill', kill],
  ['pkill', always('pkill ends processes by name')],
  ['killall', always('killall ends processes by name')],
  ['shutdown', always('shuts the machine down')],
  ['reboot', always('reboots the machine')],
  ['halt', always('halts the machine')],
  ['poweroff', always('powers the machine off')],
  ['systemctl', systemctl],
  ['crontab', crontab],
  ['userdel', always('deletes a user')],
  ['deluser', always('deletes a user')],
  ['passwd', always('changes a password')],
  ['npm', packageManager],
  ['pnpm', packageManager],
]);

/** Program names that are families (`mkfs.ext4`, `mkfs.vfat`). */
export function programCheck(name: string): ProgramCheck | undefined {
  return PROGRAMS.get(name) ?? (name.startsWith('mkfs.') ? PROGRAMS.get('mkfs') : undefined);
}
