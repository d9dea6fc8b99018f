/**
 * A tool as data, the same under every MCP SDK: what a client is shown (name, title, description,
 * schemas, annotations, `_meta`) and what a call does (a handler answering a plain result). Each
 * family builds its tools as definitions (`TaskTools.definitions()`, …); the entries of the
 * package mount them on a server of one SDK major (`.` on `@modelcontextprotocol/sdk` 1.x, `./v2` on
 * `@modelcontextprotocol/server` 2.x), so the tools, their answers and their checks are one code.
 *
 * Nothing here comes from an SDK: only zod, for the SDKs that take a zod schema.
 */
import type { z } from 'zod';

/** A JSON Schema object, as clients are shown it (read-only: definitions are shared). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The MCP tool annotations the tools set (all hints, as the specification defines them). */
export interface ToolHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What a handler gets beside its arguments: the call's abort signal, and who makes the call when the host authenticated it. */
export interface ToolCallContext {
  /** The call's abort signal: the client cancelled it, or the connection closed. */
  readonly signal?: AbortSignal;
  /**
   * Who makes the call, as the host authenticated it (an agent's name): set from the SDK's AuthInfo
   * `clientId` (v1's `extra.authInfo`, v2's `ctx.http.authInfo`); absent on an unauthenticated
   * call, never empty. With it a lease is held by this agent rather than by the tools' session,
   * and task_claim claims only for it.
   */
  readonly caller?: string;
}

/**
 * What a handler answers: the text a model reads and, with structured output on and unless it is an
 * error, the structured content beside it (every SDK major takes this shape as a tool result; a
 * type alias, not an interface, so it fits the SDKs' result types, which have index signatures).
 */
export type ToolCallResult = {
  content: [{ type: 'text'; text: string }];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

/**
 * One tool, as the family presents it (its options `structuredOutput` and `alwaysLoad` applied).
 * Frozen, and built once per object: every call of a `…Definitions()` method returns the same.
 */
export interface ToolDefinition {
  /** The tool's name in tools/list (`task_create`, `todo_write`, `todo`, …). */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /**
   * The arguments' schema for an SDK that takes zod (v1): its JSON Schema is `inputJsonSchema`, and
   * it lets any object through, because the handler checks its arguments itself (so every refusal
   * is the tool's own result, `Error: <field>: expected …, received …`, whichever SDK carries it).
   */
  readonly inputSchema: z.ZodObject;
  /** The JSON Schema clients are shown for the arguments (zod's draft-07 output, `$schema` included). */
  readonly inputJsonSchema: JsonSchema;
  /** The structured content's schema, shown and checked as `inputSchema` is; only with structured output. */
  readonly outputSchema?: z.ZodObject;
  /** The JSON Schema clients are shown for the structured content; only with structured output. */
  readonly outputJsonSchema?: JsonSchema;
  readonly annotations: ToolHints;
  /** `{ "anthropic/alwaysLoad": true }` with `alwaysLoad`; absent otherwise. */
  readonly _meta?: Readonly<Record<string, unknown>>;
  /**
   * Carries out one call: checks `args` (anything: the SDK lets every object through), runs the
   * tool, and answers; bad input is an error result, never a rejection.
   */
  readonly handler: (args: unknown, context: ToolCallContext) => Promise<ToolCallResult>;
}
