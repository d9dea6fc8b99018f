/**
 * ask_user's listing in the server, where `{ "resume": "ask_3" }` is a call beside a question (see
 * open-questions.ts): the input schema AskTools registers, with `resume` after its own properties.
 */
import { z } from 'zod';

/** The id of an open question, as a resume names it (the registry's `ask_N`). */
export const RESUME_ID = /^ask_[1-9][0-9]{0,15}$/;

/** What ask_user's question says of itself in the listing, where a resume makes it optional. */
const QUESTION_UNLESS_RESUMED = ' Required, unless the call is {"resume": "ask_N"} alone.';

/** The JSON Schema an advertised input schema shows clients (kept in its zod metadata). */
interface ShownSchema {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  [key: string]: unknown;
}

/** What resume is shown as: the id of an open question, which the tool checks as resumeOf does. */
const RESUME_PROPERTY = {
  type: 'string',
  pattern: RESUME_ID.source,
  description: 'The id of a question still open (ask_N), alone: wait again for its answer, or read it.',
};

// One resumable schema per advertised one, however many conversations register ask_user: a cache
// of immutable values by the schema object, which holds nothing of a server (so module level).
const resumableOf = new WeakMap<object, z.ZodObject>();

/**
 * ask_user's config with `resume` beside its question. The registered schema is an advertised one
 * (`advertised()` of the kit: an empty object whose zod metadata is the JSON Schema clients are
 * shown), so its shape is empty: the listing is made from that JSON Schema, with ask_user's own
 * properties (question, options, described) and resume after them, unknown keys refused. None is
 * required, because `{ "resume": "ask_3" }` alone is a call; the tool checks which it got, and the
 * question's description says it is required otherwise. No oneOf/anyOf at the top: the Anthropic
 * API refuses such a tool schema, and Claude Code hands MCP schemas to it.
 */
export function resumable<C extends { inputSchema?: unknown; description?: string }>(config: C): C {
  const schema = config.inputSchema as z.ZodObject;
  const shown = typeof schema?.meta === 'function' ? (schema.meta() as ShownSchema | undefined) : undefined;
  // Loud, not a listing without the question: AskTools registers ask_user with an advertised schema.
  if (!shown?.properties) throw new TypeError("ask_user's input schema shows no properties to list resume beside");
  let inputSchema = resumableOf.get(schema);
  if (!inputSchema) {
    const { required: _, properties, ...rest } = shown;
    const question = properties.question;
    const withResume = {
      ...properties,
      ...(question
        ? { question: { ...question, description: `${question.description ?? ''}${QUESTION_UNLESS_RESUMED}` } }
        : {}),
      resume: RESUME_PROPERTY,
    };
    inputSchema = z.looseObject({}).meta({ ...rest, properties: withResume, additionalProperties: false });
    resumableOf.set(schema, inputSchema);
  }
  return {
    ...config,
    description: `${config.description ?? ''} When a call answers that the question is still open as ask_N, call again with only {"resume": "ask_N"} to keep waiting for (or read) the answer.`,
    inputSchema,
  };
}
