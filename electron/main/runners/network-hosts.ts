import { HOST_RULE, hostAllowed } from './pty/net-proxy';

/** The registries package tools reach by default (what "Allow this host" offers for them). */
const REGISTRIES: [RegExp, string[]][] = [
  [/^(npm|npx|pnpm|pnpx|bun|bunx)$/, ['registry.npmjs.org']],
  [/^yarn$/, ['registry.yarnpkg.com']],
  [/^(pip\d*(\.\d+)?|uv|uvx|poetry|pipx|pdm)$/, ['pypi.org', 'files.pythonhosted.org']],
  [/^cargo$/, ['index.crates.io', 'static.crates.io']],
  [/^go$/, ['proxy.golang.org', 'sum.golang.org']],
  [/^(gem|bundle)$/, ['rubygems.org']],
];

const URL_HOST = /\bhttps?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?/gi;

/**
 * The hosts a command line names, as allowed-host entries: the hosts of its http(s) URLs (with the
 * port when it is not the scheme's) and the default registry of each package tool it runs. A
 * best guess for the approval card's "Allow this host": the proxy decides, and names what it refused.
 */
export function hostsNamed(command: string): string[] {
  const out = new Set<string>();
  for (const m of command.matchAll(URL_HOST)) {
    const host = m[1]!.toLowerCase();
    const scheme = m[0].toLowerCase().startsWith('https') ? 443 : 80;
    out.add(m[2] && Number(m[2]) !== scheme ? `${host}:${Number(m[2])}` : host);
  }
  for (const word of command.split(/[\s;&|()`$]+/)) {
    const program = word.replace(/^.*\//, '');
    for (const [re, hosts] of REGISTRIES) if (re.test(program)) for (const h of hosts) out.add(h);
  }
  return [...out];
}

/** The hosts a command names that the allowed hosts do not cover yet. */
export function hostsToOffer(command: string, allowed: readonly string[]): string[] {
  return hostsNamed(command).filter((entry) => {
    if (entry.length > 300 || !HOST_RULE.test(entry)) return false; // only what the settings accept
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!m) return false;
    const ports = m[2] ? [Number(m[2])] : [443, 80];
    return !ports.every((p) => hostAllowed(allowed, m[1]!, p));
  });
}
