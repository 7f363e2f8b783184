/** A settings change refused: the message says what was wrong; nothing was written. */
export class SettingsError extends Error {
  constructor(
    message: string,
    /** The field at fault (e.g. `apiKey`, `providers[2].kind`), when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}
