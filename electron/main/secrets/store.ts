import { createRequire } from 'node:module';
import type { Redactor } from './redactor';

export const SECRET_SERVICE = 'erasmus';

/** The subset of keytar the store uses (so tests of callers can hand in another backend). */
export interface KeychainBackend {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** Raised when no OS keychain can be reached; the message says what to install or unlock. */
export class KeychainUnavailableError extends Error {
  constructor(cause: unknown) {
    const detail = (cause as Error)?.message ?? String(cause);
    super(
      `The OS keychain is not reachable (${detail}). Erasmus keeps secrets only in the keychain and never falls back to plain text. ` +
        hint(),
    );
    this.name = 'KeychainUnavailableError';
  }
}

function hint(): string {
  switch (process.platform) {
    case 'darwin':
      return 'Unlock the login keychain in Keychain Access and try again.';
    case 'win32':
      return 'Make sure the Windows Credential Manager service is running.';
    default:
      return (
        'On Linux install libsecret and a Secret Service provider (e.g. `sudo apt-get install libsecret-1-0 gnome-keyring`), ' +
        'make sure a D-Bus session is running, and unlock the keyring (log in to a desktop session, or run ' +
        '`echo -n PASSWORD | gnome-keyring-daemon --unlock --components=secrets` inside `dbus-run-session`).'
      );
  }
}

const requireCjs = createRequire(import.meta.url);
let keytarModule: KeychainBackend | undefined;
function loadKeytar(): KeychainBackend {
  if (!keytarModule) {
    try {
      keytarModule = requireCjs('keytar') as KeychainBackend;
    } catch (err) {
      throw new KeychainUnavailableError(new Error(`keytar could not be loaded: ${(err as Error).message}`));
    }
  }
  return keytarModule;
}

/**
 * Secrets in the OS keychain (service `erasmus`), through keytar. Every value read or written is
 * registered with the redactor, so it is masked in anything bound for logs, files or the UI.
 */
export class SecretStore {
  private readonly backend: () => KeychainBackend;

  constructor(
    private readonly redactor: Redactor,
    backend?: KeychainBackend,
    private readonly service: string = SECRET_SERVICE,
  ) {
    this.backend = backend ? () => backend : loadKeytar;
  }

  private async call<T>(fn: (k: KeychainBackend) => Promise<T>): Promise<T> {
    try {
      return await fn(this.backend());
    } catch (err) {
      if (err instanceof KeychainUnavailableError) throw err;
      throw new KeychainUnavailableError(err);
    }
  }

  async set(name: string, value: string): Promise<void> {
    if (!value) throw new Error(`secret ${name}: the value is empty`);
    await this.call((k) => k.setPassword(this.service, name, value));
    this.redactor.add(name, value);
  }

  /** A credential read elsewhere (a provider's key from an environment variable): masked as `[secret:env:NAME]` from now on. */
  learn(name: string, value: string): void {
    this.redactor.add(name, value);
  }

  async get(name: string): Promise<string | undefined> {
    const value = await this.call((k) => k.getPassword(this.service, name));
    if (value == null) return undefined;
    this.redactor.add(name, value);
    return value;
  }

  async delete(name: string): Promise<boolean> {
    const value = await this.call((k) => k.getPassword(this.service, name));
    const deleted = await this.call((k) => k.deletePassword(this.service, name));
    // Keep masking the old value: it may still sit in memory or in text produced earlier.
    if (value) this.redactor.add(name, value);
    return deleted;
  }

  async list(): Promise<string[]> {
    const creds = await this.call((k) => k.findCredentials(this.service));
    for (const c of creds) this.redactor.add(c.account, c.password);
    return creds.map((c) => c.account).sort();
  }

  /** Reads every secret once so the redactor knows all values (call at start-up). */
  async primeRedactor(): Promise<void> {
    await this.list();
  }
}
