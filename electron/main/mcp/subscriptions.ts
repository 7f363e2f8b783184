import type { ServerConnection } from './connection';

/**
 * Resources a face asked to watch, by server; kept across the server's restarts (subscribed again
 * when it is ready). The server sends `notifications/resources/updated` when one changes, which
 * becomes the `mcp.resource.updated` event (client.ts).
 */
export class ResourceSubscriptions {
  private readonly byServer = new Map<string, Set<string>>();

  async subscribe(c: ServerConnection, uri: string): Promise<void> {
    if (c.state === 'ready' && !c.client?.getServerCapabilities()?.resources?.subscribe) throw new Error(`MCP server "${c.name}" does not offer resource subscriptions (its resources can still be read)`);
    await c.request((cl, o) => cl.subscribeResource({ uri }, o));
    let set = this.byServer.get(c.name);
    if (!set) this.byServer.set(c.name, (set = new Set()));
    set.add(uri);
  }

  /** Forgets the URI, then tells the server if it is ready (`conn` throws for an unknown server after forgetting). */
  async unsubscribe(server: string, uri: string, conn: (name: string) => ServerConnection): Promise<void> {
    const set = this.byServer.get(server);
    set?.delete(uri);
    if (set && !set.size) this.byServer.delete(server);
    const c = conn(server);
    if (c.state === 'ready') await c.request((cl, o) => cl.unsubscribeResource({ uri }, o));
  }

  /** The resources of a server being watched. */
  list(server: string): string[] {
    return [...(this.byServer.get(server) ?? [])];
  }

  /** A server that is gone (removed from the config) watches nothing. */
  forget(server: string): void {
    this.byServer.delete(server);
  }

  /** A server that came back (restart, reconnect) is asked again for what was watched. */
  resubscribe(c: ServerConnection): void {
    const uris = this.byServer.get(c.name);
    if (!uris?.size || !c.client?.getServerCapabilities()?.resources?.subscribe) return;
    for (const uri of uris) void c.request((cl, o) => cl.subscribeResource({ uri }, o)).catch(() => undefined);
  }
}
