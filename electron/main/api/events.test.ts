import { describe, expect, it } from 'vitest';
import { Redactor } from '../secrets/redactor';
import { EventBus } from './events';

describe('EventBus redaction', () => {
  it('redacts every payload, except one its emitter says it masked with the same redactor already', () => {
    const redactor = new Redactor();
    redactor.add('KEY', 'sk-secret-value-1234');
    const passes: unknown[] = [];
    const bus = new EventBus((v) => {
      passes.push(v);
      return redactor.redactValue(v);
    });
    const seen: unknown[] = [];
    bus.on((_e, p) => seen.push(p));
    bus.emit('terminal.data', { id: 't1', data: 'token sk-secret-value-1234', at: 0 });
    bus.emit('terminal.data', { id: 't1', data: 'token [secret:KEY]', at: 26 }, { masked: true });
    expect(seen).toEqual([
      { id: 't1', data: 'token [secret:KEY]', at: 0 },
      { id: 't1', data: 'token [secret:KEY]', at: 26 },
    ]);
    expect(passes).toHaveLength(1);
  });

  it('still checks a masked payload against the contract', () => {
    const bus = new EventBus((v) => v);
    expect(() => bus.emit('terminal.data', { id: 't1', data: 42 as unknown as string, at: 0 }, { masked: true })).toThrow(/terminal\.data does not match the contract/);
  });

  it("hands on terminal output whose text is decoded on demand without reading it, and still refuses a bad id or offset", () => {
    const bus = new EventBus((v) => v);
    let reads = 0;
    const payload = {
      id: 't1',
      at: 0,
      get data() {
        reads++;
        return 'out';
      },
    };
    const seen: unknown[] = [];
    bus.on((_e, p) => seen.push(p));
    bus.emit('terminal.data', payload, { masked: true });
    expect(reads).toBe(0);
    expect(seen[0]).toBe(payload);
    expect((seen[0] as { data: string }).data).toBe('out');
    expect(() => bus.emit('terminal.data', { id: 'not an id!', at: 0, data: 'x' }, { masked: true })).toThrow(/terminal\.data does not match the contract/);
    expect(() => bus.emit('terminal.data', { id: 't1', at: -1, data: 'x' }, { masked: true })).toThrow(/terminal\.data does not match the contract/);
  });
});
