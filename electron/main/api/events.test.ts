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
});
