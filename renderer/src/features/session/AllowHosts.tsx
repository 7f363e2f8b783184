import { useState } from 'react';
import type { ElicitationApproval } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';

/**
 * "Allow <host>" on the approval card of a command that needs the network: the hosts it names that
 * the project does not allow yet. The ticked ones are added to the project's allowed hosts
 * (settings.runners.set) before the Allow answer goes back, so the command reaches them.
 */
export function useAllowHosts(approval: ElicitationApproval | undefined) {
  const client = useClient();
  const [picked, setPicked] = useState<string[]>([]);
  const hosts = approval?.hosts ?? [];
  const project = approval?.cwd;
  const element =
    hosts.length && project ? (
      <fieldset className="flex flex-col gap-1 text-sm" data-testid="approval-hosts">
        <legend className="text-xs text-slate-600 dark:text-slate-400">Its network reaches only this project’s allowed hosts. It names:</legend>
        {hosts.map((h) => (
          <label key={h} className="flex items-center gap-2">
            <input type="checkbox" checked={picked.includes(h)} onChange={(e) => setPicked((xs) => (e.target.checked ? [...xs, h] : xs.filter((x) => x !== h)))} data-testid={`allow-host-${h}`} />
            Allow <code className="font-mono">{h}</code> for this project
          </label>
        ))}
      </fieldset>
    ) : null;
  /** Adds the ticked hosts to the project's allowed hosts (throws with the core's words when it cannot). */
  const commit = async () => {
    if (picked.length && project) await client.request('settings.runners.set', { project, allowHosts: picked });
  };
  return { element, commit };
}
