import { useEffect, useState } from 'react';
import type { McpIcon as Icon } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';

const dark = () => typeof document !== 'undefined' && document.documentElement.classList.contains('dark');

/**
 * A server's or tool's icon, small and decorative (its name stands beside it). The core turns an
 * https icon into a data: URL, so the page loads no remote image; an icon that fails shows nothing.
 */
export function McpIcon({ icons, size = 16 }: { icons: Icon[] | undefined; size?: number }) {
  const client = useClient();
  const theme = dark() ? 'dark' : 'light';
  const icon = icons?.find((i) => i.theme === theme) ?? icons?.find((i) => !i.theme) ?? icons?.[0];
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!icon) return;
    let live = true;
    client.request('mcp.icon', { src: icon.src }).then(
      (r) => live && setUrl(r.dataUrl),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, icon?.src]);
  if (!url) return null;
  return <img src={url} alt="" width={size} height={size} className="shrink-0 rounded-sm object-contain" data-testid="mcp-icon" />;
}
