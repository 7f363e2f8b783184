export { SettingsError } from './errors';
export { editConfigYaml, readConfigDocument } from './config-yaml';
export { addProvider, listProviders, removeProvider, setDefaultProvider, updateProvider, validateProvider, type NewKey } from './providers';
export { getAgentDefaults, setAgentDefaults } from './agent-defaults';
export { getRunnerSettings, setRunnerSettings, type RunnerChanges } from './runners';
export { getPromptSection, listPromptSections, resetPromptSection, setPromptSection, type PromptDirs } from './prompts';
