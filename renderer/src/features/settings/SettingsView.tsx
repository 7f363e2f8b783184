import { useState } from 'react';
import type { ThemeChoice } from '../../app/theme';
import { AgentDefaults } from './AgentDefaults';
import { AllowedHosts } from './AllowedHosts';
import { ApiKeys } from './ApiKeys';
import { Appearance } from './Appearance';
import { PromptSections } from './PromptSections';
import { Providers } from './Providers';
import { RewriteRules } from './RewriteRules';

/** Theme and notifications, API keys, providers, tool calls and approvals, the project's rewriting rules and allowed hosts, prompt sections. */
export function SettingsView({ project, ...props }: { theme: ThemeChoice; onTheme: (t: ThemeChoice) => void; notifications: string; onRequestNotifications: () => void; project?: string }) {
  // The keychain's names, listed by both API keys and the providers' form: a key saved (or deleted) in one shows in the other.
  const [keys, setKeys] = useState(0);
  const keysChanged = () => setKeys((n) => n + 1);
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8" data-testid="settings-view">
      <Appearance {...props} />
      <ApiKeys keys={keys} onKeysChanged={keysChanged} />
      <Providers keys={keys} onKeysChanged={keysChanged} />
      <AgentDefaults />
      <RewriteRules project={project} />
      <AllowedHosts project={project} />
      <PromptSections />
    </div>
  );
}
