/** A provider kind in words, for a provider configured without a display name of its own. */
const KIND_WORDS: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  ollama: 'Ollama',
  openrouter: 'OpenRouter',
  'openai-compatible': 'OpenAI-compatible server',
};

/** How a provider is named to people: its configured display name, else its kind in words (never its config id alone). */
export function providerDisplayName(p: { kind: string; name?: string }): string {
  return p.name?.trim() || KIND_WORDS[p.kind] || p.kind;
}
