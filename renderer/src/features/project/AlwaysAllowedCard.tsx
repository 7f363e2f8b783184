import { useCallback, useEffect, useState } from 'react';
import { grantWords, type GrantKind } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';

/** What the user chose to always allow in this project on approval cards, each with a way to take it back. Hidden when nothing is. */
export function AlwaysAllowedCard({ projectDir }: { projectDir: string }) {
  const client = useClient();
  const [kinds, setKinds] = useState<GrantKind[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    // A list that cannot be read shows nothing: such a file allows nothing either (every card asks).
    setKinds(await client.request('project.approvals.list', { path: projectDir }).then((r) => r.kinds, () => []));
  }, [client, projectDir]);
  useEffect(() => void load(), [load]);
  // A card answered "always … in this project" meanwhile.
  useEffect(() => client.on('mcp.elicitation.done', () => void load()), [client, load]);
  if (!kinds.length && !error) return null;
  const revoke = async (kind: GrantKind) => {
    try {
      setKinds((await client.request('project.approvals.revoke', { path: projectDir, kind })).kinds);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section aria-label="Always allowed in this project" className="rounded border border-slate-200 p-3 text-sm dark:border-slate-800" data-testid="always-allowed">
      <h3 className="font-semibold">Always allowed in this project</h3>
      {error ? <ErrorBanner message={error} /> : null}
      <ul className="mt-1 flex flex-col gap-1">
        {kinds.map((k) => (
          <li key={k} className="flex items-center gap-2" data-testid="always-allowed-kind">
            <span className="flex-1">{grantWords(k).replace(/^./, (c) => c.toUpperCase())}, without asking</span>
            <Button onClick={() => void revoke(k)} data-testid={`revoke-${k}`} aria-label={`Ask again before ${grantWords(k)}`}>Ask again</Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
