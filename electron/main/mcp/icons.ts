// Icons of servers and tools (MCP 2025-11-25 `icons`): only https: and data:image/ sources are kept; an
// https icon is fetched by the core (small, image types only) and handed to the renderer as a data: URL,
// so the renderer's CSP stays `img-src 'self' data:` and no icon host sees the user's views.

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

const IMAGE = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;
/** The largest icon fetched or passed on. */
export const MAX_ICON_BYTES = 256 * 1024;

/** The icons worth showing: https or data:image sources, at most 8. */
export function safeIcons(icons: unknown): Icon[] | undefined {
  if (!Array.isArray(icons)) return undefined;
  const out: Icon[] = [];
  for (const i of icons as Icon[]) {
    if (!i || typeof i.src !== 'string') continue;
    const ok = /^https:\/\/[^\s]+$/.test(i.src) || (/^data:image\/(png|jpeg|gif|webp|svg\+xml)[;,]/.test(i.src) && i.src.length <= MAX_ICON_BYTES * 1.4);
    if (!ok) continue;
    out.push({ src: i.src, ...(i.mimeType ? { mimeType: i.mimeType } : {}), ...(Array.isArray(i.sizes) ? { sizes: i.sizes.filter((s) => typeof s === 'string') } : {}), ...(i.theme === 'light' || i.theme === 'dark' ? { theme: i.theme } : {}) });
    if (out.length === 8) break;
  }
  return out.length ? out : undefined;
}

const cache = new Map<string, Promise<string>>();

/** An icon as a data: URL: data: sources as they are; https ones fetched once (5 s, ≤ 256 kB, an image type). */
export function iconDataUrl(src: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  if (src.startsWith('data:')) {
    if (!safeIcons([{ src }])) return Promise.reject(new Error('not an image data: URL'));
    return Promise.resolve(src);
  }
  if (!/^https:\/\//.test(src)) return Promise.reject(new Error('only https: and data: icons are shown'));
  let p = cache.get(src);
  if (!p) {
    p = (async () => {
      const res = await fetchImpl(src, { signal: AbortSignal.timeout(5000), redirect: 'follow' });
      if (!res.ok) throw new Error(`the icon's server answered ${res.status}`);
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!IMAGE.test(type)) throw new Error(`not an image (${type || 'no content type'})`);
      const body = new Uint8Array(await res.arrayBuffer());
      if (body.length > MAX_ICON_BYTES) throw new Error(`larger than ${MAX_ICON_BYTES / 1024} kB`);
      return `data:${type};base64,${Buffer.from(body).toString('base64')}`;
    })();
    cache.set(src, p);
    p.catch(() => cache.delete(src));
  }
  return p;
}
