import type { ThemeChoice } from '../../app/theme';
import { ApiKeys } from './ApiKeys';
import { Appearance } from './Appearance';

/** Settings that have a contract today: API keys, theme, notifications. */
export function SettingsView(props: { theme: ThemeChoice; onTheme: (t: ThemeChoice) => void; notifications: string; onRequestNotifications: () => void }) {
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8" data-testid="settings-view">
      <Appearance {...props} />
      <ApiKeys />
      <section aria-labelledby="prov-h" className="flex flex-col gap-1 text-sm">
        <h3 id="prov-h" className="font-semibold">Providers, models, tool-call mode, approvals, rewriting rules, prompt sections</h3>
        <p className="text-slate-500">
          These live in <code>config.yaml</code> and <code>prompts/</code> in ERASMUS_HOME; the core does not offer them over the contract yet, so edit those files (the core reads them for each new session).
        </p>
      </section>
    </div>
  );
}
