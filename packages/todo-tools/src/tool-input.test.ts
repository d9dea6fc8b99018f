// What clients see in tools/list: the advertised schemas of every tool of the package.
import { afterEach, describe, expect, it } from 'vitest';
import { received } from './received.js';
import { closeClients, SDK_MAJORS, type SdkMajor } from './testing/sdk-majors.js';
import { JSON_VALUE_SCHEMA } from './tool-input.js';

type Schema = Record<string, unknown>;
const ANNOTATIONS = new Set(['description', 'title', '$schema', 'default', 'examples']);

/**
 * Paths of sub-schemas schema linters flag: ones that constrain nothing (`{}` or annotations only)
 * and `type` arrays (a single-type dialect such as Gemini's cannot take them).
 */
function unportable(schema: unknown, path: string, found: string[] = []): string[] {
  if (
    schema === true ||
    (typeof schema === 'object' && schema !== null && Object.keys(schema).every((k) => ANNOTATIONS.has(k)))
  ) {
    found.push(path);
    return found;
  }
  if (typeof schema !== 'object' || schema === null) return found;
  const s = schema as Schema;
  if (Array.isArray(s.type)) found.push(`${path}.type`);
  for (const [key, value] of Object.entries((s.properties as Record<string, unknown>) ?? {})) {
    unportable(value, `${path}.properties.${key}`, found);
  }
  if (typeof s.additionalProperties === 'object' || s.additionalProperties === true) {
    unportable(s.additionalProperties, `${path}.additionalProperties`, found);
  }
  if (s.items !== undefined) unportable(s.items, `${path}.items`, found);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const [i, branch] of ((s[key] as unknown[] | undefined) ?? []).entries()) {
      unportable(branch, `${path}.${key}[${i}]`, found);
    }
  }
  return found;
}

/** Every tool of the package (structured output on) as a client of `sdk`'s major lists it. */
async function listedTools(sdk: SdkMajor) {
  const server = sdk.newServer('all');
  const tasks = new sdk.TaskTools({ structuredOutput: true });
  tasks.register(server);
  tasks.registerClaim(server);
  new sdk.TodoWriteTool({ structuredOutput: true }).register(server);
  new sdk.TodoTool({ structuredOutput: true }).register(server);
  const { tools } = await (await sdk.connect(server)).listTools();
  return tools;
}

afterEach(closeClients);

describe.each(SDK_MAJORS)('the schemas clients see (SDK v$major)', (sdk) => {
  const listed = () => listedTools(sdk);

  it('every input property has a description a model can use', async () => {
    for (const tool of await listed()) {
      for (const [key, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as Schema).description, `${tool.name}.${key}`).toMatch(/\w{3,}/);
      }
    }
  });

  it('nothing a schema linter flags (metadata is a record of JSON values), inputs and outputs', async () => {
    for (const tool of await listed()) {
      expect(unportable(tool.inputSchema, `${tool.name}.inputSchema`)).toEqual([]);
      expect(unportable(tool.outputSchema, `${tool.name}.outputSchema`)).toEqual([]);
    }
    const create = (await listed()).find((t) => t.name === 'task_create');
    const metadata = create?.inputSchema.properties?.metadata as Schema | undefined;
    expect(metadata?.additionalProperties).toEqual(JSON_VALUE_SCHEMA);
  });

  it('advertises the real shape: types, limits, required arguments, no unknown keys', async () => {
    const tools = await listed();
    const create = tools.find((t) => t.name === 'task_create')?.inputSchema as Schema;
    expect(create.required).toEqual(['subject', 'description']);
    expect(create.additionalProperties).toBe(false);
    expect((create.properties as Record<string, Schema>).subject).toMatchObject({ type: 'string' });
    const update = tools.find((t) => t.name === 'task_update')?.inputSchema as Schema;
    expect((update.properties as Record<string, Schema>).status).toMatchObject({
      enum: ['pending', 'in_progress', 'completed', 'deleted'],
    });
    const todo = tools.find((t) => t.name === 'todo')?.inputSchema as Schema;
    expect(todo.required).toEqual(['action']);
  });
});

describe('received', () => {
  it('quotes short values and describes long ones by kind and size, never echoing them whole', () => {
    expect(received(undefined)).toBe('nothing');
    expect(received('done')).toBe('"done"');
    expect(received([1, 2])).toBe('[1,2]');
    const huge = received('x'.repeat(1_000_000));
    expect(huge).toBe(`a string of 1000000 characters ("${'x'.repeat(30)}…")`);
    expect(received(Array.from({ length: 500 }, () => 'item'))).toBe('an array of 500 items');
    expect(received(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, i])))).toBe(
      'an object with 40 keys',
    );
    const shown = received('a\u001b[31mb\u202e');
    expect(shown.includes('\u001b') || shown.includes('\u202e')).toBe(false);
  });
});
