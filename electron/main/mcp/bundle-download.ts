// A `.mcpb` bundle the MCP Registry points at (a package of registryType "mcpb": an https URL and its
// fileSha256): downloaded by the core, size-capped, and checked against the registry's sha256 before
// anything reads it. Then it is installed as a bundle file is (`install.ts`).
import { createHash } from 'node:crypto';
import { bundleFromBytes, type Bundle } from './mcpb';

/** The most a bundle download may weigh (the zip; what it unpacks to is capped by mcpb.ts). */
export const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;
const SHA256 = /^[a-f0-9]{64}$/;

export interface BundleRef {
  url: string;
  sha256?: string;
}

export interface DownloadOptions {
  fetch?: typeof fetch;
  maxBytes?: number;
  /** The whole download's limit (default 120 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The one http origin allowed besides https: the configured registry's own when it is on loopback
   * (`registryLoopbackOrigin`: a local mirror, a test fixture). Anything else must be https.
   */
  loopbackOrigin?: string;
}

/** The origin of a registry at http://127.0.0.1, localhost or [::1] (bundles it serves itself may come over http). */
export function registryLoopbackOrigin(registry: string): string | undefined {
  try {
    const u = new URL(registry);
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

function checkUrl(raw: string, loopbackOrigin: string | undefined, what = ''): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`refused the bundle at "${raw}"${what}: not a URL`);
  }
  if (u.protocol === 'https:' || (loopbackOrigin && u.protocol === 'http:' && u.origin === loopbackOrigin)) return u;
  throw new Error(`refused the bundle at ${raw}${what}: bundles are downloaded over https only`);
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * Downloads a registry bundle and checks its sha256: refused before any download when the registry gives
 * none, and after it when the bytes differ (the error names both). Network failures say so plainly.
 */
export async function downloadBundle(ref: BundleRef, opts: DownloadOptions = {}): Promise<Uint8Array> {
  const expected = ref.sha256?.trim().toLowerCase();
  if (!expected) throw new Error(`refused the bundle at ${ref.url}: the MCP Registry gives no sha256 (fileSha256) for it, so what is downloaded could not be checked (expected sha256: none given; actual: not downloaded). Download it yourself and install the file if you trust its source.`);
  if (!SHA256.test(expected)) throw new Error(`refused the bundle at ${ref.url}: the MCP Registry's sha256 for it, "${ref.sha256}", is not 64 hexadecimal digits`);
  const url = checkUrl(ref.url, opts.loopbackOrigin);
  const max = opts.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const ms = opts.timeoutMs ?? 120_000;
  const timeout = AbortSignal.timeout(ms);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const unreachable = (err: unknown): Error => {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const cause = timeout.aborted ? `no complete answer in ${Math.round(ms / 1000)} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return new Error(`cannot download the bundle from ${url.href} (${cause}). Check the network connection and try again.`);
  };
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, { redirect: 'follow', signal });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw unreachable(err);
  }
  if (res.url && res.url !== url.href) checkUrl(res.url, opts.loopbackOrigin, ` (${url.href} redirected there)`);
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`${url.host} answered ${res.status} ${res.statusText} for the bundle at ${url.href}`);
  }
  const tooBig = () => new Error(`refused the bundle at ${url.href}: it is larger than the ${mb(max)} a bundle download may be`);
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(length) && length > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooBig();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = res.body?.getReader();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      size += next.value.byteLength;
      if (size > max) {
        await reader!.cancel().catch(() => undefined);
        break;
      }
      chunks.push(next.value);
    }
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw unreachable(err);
  }
  if (size > max) throw tooBig();
  const bytes = Buffer.concat(chunks, size);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== expected) throw new Error(`refused the bundle at ${url.href}: it does not match the MCP Registry's sha256 (expected ${expected}, actual ${actual}). It was not installed; it may have changed since it was published.`);
  return bytes;
}

/** Downloads a registry bundle, checks it and reads it (manifest, files) as a bundle file is read. */
export async function fetchRegistryBundle(ref: BundleRef, opts: DownloadOptions = {}): Promise<Bundle> {
  return bundleFromBytes(await downloadBundle(ref, opts), ref.url);
}

/**
 * The core's recent registry bundles, so showing what one asks for and installing it download it once.
 * Holds two at most; a failed download is not kept.
 */
export class RegistryBundles {
  private readonly recent = new Map<string, Promise<Bundle>>();
  constructor(private readonly opts: DownloadOptions = {}) {}

  get(ref: BundleRef): Promise<Bundle> {
    const key = `${ref.sha256 ?? ''} ${ref.url}`;
    let p = this.recent.get(key);
    if (!p) {
      p = fetchRegistryBundle(ref, this.opts);
      this.recent.set(key, p);
      p.catch(() => this.recent.delete(key));
      while (this.recent.size > 2) this.recent.delete(this.recent.keys().next().value!);
    }
    return p;
  }

  /** Drops one (after it was installed). */
  forget(ref: BundleRef): void {
    this.recent.delete(`${ref.sha256 ?? ''} ${ref.url}`);
  }
}
