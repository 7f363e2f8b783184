import { describe, expect, it } from 'vitest';
import { contentOf, fieldsOf } from './elicitationForm';

describe('elicitation forms', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Your name' },
      age: { type: 'integer' },
      color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
      ok: { type: 'boolean', default: true },
    },
    required: ['name'],
  };
  it('reads the fields of a flat schema; an empty schema is a confirmation', () => {
    expect(fieldsOf(schema).map((f) => `${f.name}:${f.kind}:${f.required}`)).toEqual(['name:string:true', 'age:number:false', 'color:enum:false', 'ok:boolean:false']);
    const color = fieldsOf(schema)[2]!;
    expect(color.kind === 'enum' && color.options).toEqual([{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }]);
    expect(fieldsOf({ type: 'object', properties: {} })).toEqual([]);
  });
  it('types the answers and names the field that is wrong', () => {
    const fields = fieldsOf(schema);
    expect(contentOf(fields, { name: ' Ada ', age: '36', color: 'g', ok: false })).toEqual({ content: { name: 'Ada', age: 36, color: 'g', ok: false } });
    expect(contentOf(fields, { age: '3' })).toEqual({ error: 'Your name is required.' });
    expect(contentOf(fields, { name: 'x', age: '3.5' })).toEqual({ error: 'age must be a whole number.' });
  });
});
