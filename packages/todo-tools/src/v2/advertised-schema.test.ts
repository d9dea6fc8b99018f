// The schemas the v2 adapter hands SDK v2: they show the advertised JSON Schema and check nothing.
import { describe, expect, it } from 'vitest';
import { TaskToolsCore } from '../tasks/task-tools-core.js';
import { TodoToolCore } from '../todo/todo-tool-core.js';
import { TodoWriteToolCore } from '../todo-write/todo-write-tool-core.js';
import type { JsonSchema } from '../tool-definition.js';
import { advertisedSchema } from './advertised-schema.js';

const tasks = new TaskToolsCore({ structuredOutput: true });
const definitions = [
  ...tasks.definitions(),
  ...tasks.claimDefinitions(),
  ...new TodoWriteToolCore({ structuredOutput: true }).definitions(),
  ...new TodoToolCore({ structuredOutput: true }).definitions(),
];
const schemas = definitions.flatMap((tool) => [tool.inputJsonSchema, tool.outputJsonSchema as JsonSchema]);

/**
 * Keywords that mean the same in draft-07 and 2020-12 (the advertised schemas are written by zod
 * for draft-07; v2 labels them 2020-12). Not here: `items` as an array, `additionalItems`,
 * `definitions`, `dependencies`, `$ref`: their meaning changed between the two.
 */
const SAME_IN_BOTH = new Set([
  '$schema',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'pattern',
]);

/** Every keyword used in `schema` and its sub-schemas (property names are not keywords). */
function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return found;
  for (const [key, value] of Object.entries(schema)) {
    found.add(key);
    if (key === 'properties') for (const property of Object.values(value as object)) keywords(property, found);
    else if (key === 'anyOf') for (const branch of value as unknown[]) keywords(branch, found);
    else if (key === 'items' && Array.isArray(value)) found.add('items as an array');
    else if (['items', 'additionalProperties', 'propertyNames'].includes(key)) keywords(value, found);
  }
  return found;
}

describe('advertisedSchema', () => {
  it('lets every value through, unchanged (the tools check their own arguments)', () => {
    const schema = advertisedSchema(definitions[0]?.inputJsonSchema as JsonSchema)['~standard'];
    for (const value of [{ subject: 5 }, {}, null, 'text', [1]]) expect(schema.validate(value)).toEqual({ value });
    const args = { priority: 1 };
    expect(schema.validate(args).value).toBe(args);
  });

  it('writes the advertised JSON Schema for the target asked, labelled for it, its keys in order', () => {
    for (const json of schemas) {
      const { jsonSchema } = advertisedSchema(json)['~standard'];
      expect(jsonSchema.input({ target: 'draft-07' })).toEqual(json);
      expect(JSON.stringify(jsonSchema.input({ target: 'draft-07' }))).toBe(JSON.stringify(json));
      const modern = jsonSchema.output({ target: 'draft-2020-12' });
      expect(modern.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(Object.keys(modern)).toEqual(Object.keys(json));
      expect({ ...modern, $schema: json.$schema }).toEqual(json);
    }
  });

  it('refuses a target it cannot write, as a Standard JSON Schema converter does', () => {
    const { jsonSchema } = advertisedSchema(schemas[0] as JsonSchema)['~standard'];
    expect(() => jsonSchema.input({ target: 'openapi-3.0' })).toThrow('no JSON Schema for the target openapi-3.0');
  });

  it('hands out copies (a server may change what it is given; the definitions are shared) and one schema per JSON', () => {
    const json = schemas[0] as JsonSchema;
    const written = advertisedSchema(json)['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    (written.properties as Record<string, unknown>).subject = 'changed';
    expect((json.properties as Record<string, unknown>).subject).not.toBe('changed');
    expect(advertisedSchema(json)).toBe(advertisedSchema(json));
  });

  it('every keyword of every tool schema reads alike in draft-07 and 2020-12, so the 2020-12 label is true', () => {
    const used = new Set<string>();
    for (const json of schemas) keywords(json, used);
    expect([...used].filter((keyword) => !SAME_IN_BOTH.has(keyword))).toEqual([]);
    expect(used.has('anyOf') && used.has('items') && used.has('additionalProperties')).toBe(true);
  });
});
