import { z } from 'zod';
import type { MethodTable } from '../table';
import { ToolMode } from './agent';
import { SecretName } from './secrets';

/**
 * How much the agent asks before acting (config.yaml `approvals:`):
 * - `ask`: every call that may change something asks, even tools that call themselves non-destructive
 *   and commands the command policy would run (read-only tools still run);
 * - `non-destructive` (default): read-only and non-destructive tools and safe commands run, the rest asks;
 * - `unattended`: whatever the policy does not refuse runs without asking (like `--yes`).
 */
export const ApprovalsPolicy = z.enum(['ask', 'non-destructive', 'unattended']);
export type ApprovalsPolicy = z.infer<typeof ApprovalsPolicy>;

/**
 * One `providers:` entry as it travels. The core validates it with the agent's own schema
 * (electron/main/agent/providers/config.ts), so kinds and rules live in one place.
 */
export const ProviderEntry = z
  .object({
    id: z.string(),
    kind: z.string(),
    /** The provider's name in words (default: its kind in words). */
    name: z.string().optional(),
    model: z.string(),
    baseUrl: z.string().optional(),
    /** A reference only: `${secret:NAME}` or `${env:NAME}`. */
    apiKey: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    contextWindow: z.number().optional(),
    maxOutputTokens: z.number().optional(),
    nativeTools: z.boolean().optional(),
    /** USD per million tokens; overrides the bundled catalog. */
    pricing: z.object({ input: z.number(), output: z.number(), cacheRead: z.number().optional(), cacheWrite: z.number().optional() }).optional(),
    reasoning: z.object({ effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(), budgetTokens: z.number().optional() }).optional(),
    /** openai: keep responses on OpenAI's servers (off by default). */
    store: z.boolean().optional(),
  })
  .strict();
export type ProviderEntry = z.infer<typeof ProviderEntry>;

/** A key to store in the keychain under `secret`; the provider then refers to it as `${secret:NAME}`. */
const NewKey = z.object({ secret: SecretName, value: z.string().min(1).max(64 * 1024) }).strict();

export const ProvidersState = z.object({
  defaultProvider: z.string().nullable(),
  providers: z.array(ProviderEntry),
  /** Provider kinds the agent knows. */
  kinds: z.array(z.string()),
  file: z.string(),
});
export type ProvidersState = z.infer<typeof ProvidersState>;

/** Defaults of new sessions and runs (config.yaml); a budget is in US dollars, absent when none is set. */
export const AgentDefaults = z.object({
  toolMode: ToolMode,
  approvals: ApprovalsPolicy,
  /** Cost budget of every agent session that sets none of its own (models with known prices only). */
  sessionBudgetUsd: z.number().positive().optional(),
  /** Cost budget of every workflow run (agent executor) started without one. */
  runBudgetUsd: z.number().positive().optional(),
});
export type AgentDefaults = z.infer<typeof AgentDefaults>;
/** A change of the defaults; a budget set to null is removed. */
export const AgentDefaultsChange = z
  .object({
    toolMode: ToolMode.optional(),
    approvals: ApprovalsPolicy.optional(),
    sessionBudgetUsd: z.number().positive().nullable().optional(),
    runBudgetUsd: z.number().positive().nullable().optional(),
  })
  .strict();
export type AgentDefaultsChange = z.infer<typeof AgentDefaultsChange>;

export const RunnerSettingsView = z.object({
  project: z.string(),
  file: z.string(),
  /** Script review before bash scripts, Dockerfiles and git changes. */
  review: z.boolean(),
  rules: z.array(z.object({ id: z.string(), description: z.string(), enabled: z.boolean() })),
  /** What a command the user accepted as needing the network may reach (through the sandbox's proxy); nothing else. */
  allowedHosts: z.array(z.string()),
});
export type RunnerSettingsView = z.infer<typeof RunnerSettingsView>;

/** A prompt section's name: its title (the file name without `.md`). */
export const SectionName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$/, 'a section name is letters, digits, spaces, _ and - (at most 64, starting with a letter or digit)');

export const PromptSectionInfo = z.object({ name: z.string(), builtin: z.boolean(), overridden: z.boolean() });
export type PromptSectionInfo = z.infer<typeof PromptSectionInfo>;

export const settingsMethods = {
  'settings.providers.list': { params: z.object({}).strict(), result: ProvidersState },
  /** Adds a provider; `key` is written to the keychain first and the entry refers to it. */
  'settings.providers.add': { params: z.object({ provider: ProviderEntry, key: NewKey.optional() }).strict(), result: ProvidersState },
  /** Replaces the provider `id` (the new entry may rename it; the default follows). */
  'settings.providers.update': { params: z.object({ id: z.string().min(1), provider: ProviderEntry, key: NewKey.optional() }).strict(), result: ProvidersState },
  'settings.providers.remove': { params: z.object({ id: z.string().min(1) }).strict(), result: ProvidersState },
  /** null clears `defaultProvider` (the first provider is used). */
  'settings.providers.setDefault': { params: z.object({ id: z.string().min(1).nullable() }).strict(), result: ProvidersState },

  /** One tiny completion through a provider (default: config.yaml's default), to check its key, URL and model. */
  'settings.providers.test': {
    params: z.object({ id: z.string().min(1).optional() }).strict(),
    result: z.object({ ok: z.boolean(), provider: z.string(), model: z.string(), message: z.string(), ms: z.number() }),
  },
  'settings.agent.get': { params: z.object({}).strict(), result: AgentDefaults },
  'settings.agent.set': { params: AgentDefaultsChange, result: AgentDefaults },

  /** The command rewriting rules and the script-review switch of one project. */
  'settings.runners.get': { params: z.object({ project: z.string().min(1) }).strict(), result: RunnerSettingsView },
  'settings.runners.set': {
    params: z
      .object({
        project: z.string().min(1),
        review: z.boolean().optional(),
        enable: z.array(z.string()).optional(),
        disable: z.array(z.string()).optional(),
        /** Hosts added to / removed from the allowed hosts (`registry.npmjs.org`, `*.domain`, `host:port`). */
        allowHosts: z.array(z.string().max(300)).max(50).optional(),
        disallowHosts: z.array(z.string().max(300)).max(50).optional(),
      })
      .strict(),
    result: RunnerSettingsView,
  },

  'settings.prompts.list': { params: z.object({}).strict(), result: z.object({ sections: z.array(PromptSectionInfo), dir: z.string() }) },
  /** The shipped text (null for a section only the user added) and the user's override (null when none). */
  'settings.prompts.get': { params: z.object({ name: SectionName }).strict(), result: z.object({ name: z.string(), builtin: z.string().nullable(), override: z.string().nullable() }) },
  /** Writes the override (an empty body removes the section from the prompt). */
  'settings.prompts.set': { params: z.object({ name: SectionName, body: z.string().max(256 * 1024) }).strict(), result: PromptSectionInfo },
  /** Deletes the override: the shipped text applies again. */
  'settings.prompts.reset': { params: z.object({ name: SectionName }).strict(), result: z.object({ deleted: z.boolean() }) },
} satisfies MethodTable;
