/**
 * How the v2 adapter shows a tool's schemas. SDK v2 takes a Standard Schema (standardschema.dev)
 * with a JSON Schema converter: it calls `~standard.validate` on every call's arguments and
 * structured result, answering a failure itself (`Input validation error: …`, outside the tool's
 * answer), and writes tools/list from `~standard.jsonSchema`. The tools check their own arguments
 * (so every refusal is theirs, `Error: <field>: expected …, received …`, as under v1), so their
 * schema here validates nothing and shows the advertised JSON Schema: the one v1 lists, with the
 * `$schema` of the dialect the SDK asks for (it asks for 2020-12, MCP's default dialect).
 */
import type { JsonSchema } from '../tool-definition.js';

/**
 * A schema as SDK v2 takes it: Standard Schema's `StandardSchemaV1` and `StandardJSONSchemaV1`
 * (written out here, so this entry's types name no SDK type). `validate` lets every value through.
 */
export interface AdvertisedSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    /** What a handler's arguments are typed as (no value: types only). */
    readonly types?: { readonly input: Record<string, unknown>; readonly output: Record<string, unknown> };
    readonly validate: (value: unknown) => { readonly value: unknown };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The `$schema` of each dialect the advertised JSON Schema is valid in (it uses no keyword they read apart). */
const DIALECTS: Readonly<Record<string, string>> = {
  'draft-2020-12': 'https://json-schema.org/draft/2020-12/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

/** A copy of `json` labelled for `target` (its `$schema` replaced in place, so the keys keep their order). */
function labelled(json: JsonSchema, target: string): Record<string, unknown> {
  const dialect = DIALECTS[target];
  // Standard JSON Schema: a converter throws for a target it cannot write.
  if (dialect === undefined) throw new Error(`@raider/todo-tools: no JSON Schema for the target ${target}`);
  return Object.fromEntries(
    Object.entries(json).map(([key, value]) => [key, key === '$schema' ? dialect : structuredClone(value)]),
  );
}

// Each JSON Schema (shared by every object with the same limits) gets one schema object.
const advertisedOf = new WeakMap<JsonSchema, AdvertisedSchema>();

/** The schema SDK v2 is given for a tool whose clients are shown `json`: any value passes. */
export function advertisedSchema(json: JsonSchema): AdvertisedSchema {
  const known = advertisedOf.get(json);
  if (known) return known;
  const write = (options: { readonly target: string }) => labelled(json, options.target);
  const made: AdvertisedSchema = Object.freeze({
    '~standard': Object.freeze({
      version: 1 as const,
      vendor: 'raider',
      validate: (value: unknown) => ({ value }),
      jsonSchema: Object.freeze({ input: write, output: write }),
    }),
  });
  advertisedOf.set(json, made);
  return made;
}
