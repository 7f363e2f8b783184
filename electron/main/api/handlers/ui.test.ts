import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedCore } from '../testing';

const { home, client, dispose } = connectedCore('ui-settings');
afterAll(dispose);

describe('ui.settings over the contract', () => {
  it('starts from the defaults, keeps a change in ERASMUS_HOME/ui.json, and refuses bad values by name', async () => {
    expect(await client.request('ui.settings.get', {})).toEqual({ theme: 'system' });
    expect(await client.request('ui.settings.set', { theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(JSON.parse(readFileSync(join(home, 'ui.json'), 'utf8'))).toEqual({ theme: 'dark' });
    await expect(client.request('ui.settings.set', { theme: 'purple' } as never)).rejects.toThrow(/theme/);
    expect(await client.request('ui.settings.get', {})).toEqual({ theme: 'dark' });
  });
  it('reads a damaged file as the defaults for what no longer parses', async () => {
    writeFileSync(join(home, 'ui.json'), '{"theme": 42, "other": true}');
    expect(await client.request('ui.settings.get', {})).toEqual({ theme: 'system' });
    writeFileSync(join(home, 'ui.json'), 'not json');
    expect(await client.request('ui.settings.get', {})).toEqual({ theme: 'system' });
  });
});
