/**
 * Shown while runner commands have no OS sandbox (bubblewrap missing or unusable, macOS/Windows for
 * now, or ERASMUS_SANDBOX=off): the command policy then asks for every command that is not read-only.
 */
export function SandboxNotice({ sandbox }: { sandbox: { available: boolean; detail: string } | undefined }) {
  if (!sandbox || sandbox.available) return null;
  return (
    <span role="status" title={`${sandbox.detail}. \`erasmus doctor\` says how to get one.`} className="rounded bg-amber-100 px-2 text-amber-900 dark:bg-amber-950 dark:text-amber-200" data-testid="status-no-sandbox">
      No sandbox: commands that are not read-only ask first
      <span className="sr-only"> ({sandbox.detail}; `erasmus doctor` says how to get one)</span>
    </span>
  );
}
