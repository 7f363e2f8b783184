/**
 * Which sandbox protects runner commands: bubblewrap (Linux), Seatbelt (macOS), or none (Windows,
 * bubblewrap missing or unusable, a Seatbelt probe that failed, or ERASMUS_SANDBOX=off), when the command policy asks for
 * every command that is not read-only.
 */
export function SandboxNotice({ sandbox }: { sandbox: { available: boolean; detail: string } | undefined }) {
  if (!sandbox) return null;
  if (sandbox.available)
    return (
      <span title={sandbox.detail} className="text-neutral-500 dark:text-neutral-400" data-testid="status-sandbox">
        Sandboxed ({sandbox.detail.startsWith('macOS') ? 'Seatbelt' : 'bubblewrap'})
      </span>
    );
  return (
    <span role="status" title={`${sandbox.detail}. \`erasmus doctor\` says how to get one.`} className="rounded bg-amber-100 px-2 text-amber-900 dark:bg-amber-950 dark:text-amber-200" data-testid="status-no-sandbox">
      Not sandboxed: commands that are not read-only ask first
      <span className="sr-only"> ({sandbox.detail}; `erasmus doctor` says how to get one)</span>
    </span>
  );
}
