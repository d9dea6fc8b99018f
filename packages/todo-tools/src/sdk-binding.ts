/**
 * What binds the SDK-neutral tools to one MCP SDK major, written once for both. Registering a tool
 * (`registerTool(name, config, handler)`) reads the same under v1 and v2 but for two things: the
 * schema type a tool's config carries (v1 takes zod, v2 a Standard Schema), and where the context a
 * handler gets keeps the call's abort signal (v1's `extra.signal`, v2's `ctx.mcpReq.signal`) and
 * the host's authentication of the caller (v1's `extra.authInfo`, v2's `ctx.http.authInfo`). Each
 * adapter says those things and how to make its server (`bindSdk` in v1/tool-registrar.ts and
 * v2/tool-registrar.ts); the rest, the configs handed to `registerTool` and the server each tool
 * class builds once, is here. Nothing here comes from an SDK.
 */
import type { ToolCallContext, ToolCallResult, ToolDefinition, ToolHints } from './tool-definition.js';
import { VERSION } from './version.js';

/** How a tool is configured on a server whose SDK takes `Schema`s: what `mountTools` hands `registerTool`. */
export interface ToolConfigOf<Schema> {
  title: string;
  description: string;
  inputSchema: Schema;
  /** Only with structured output. */
  outputSchema?: Schema;
  annotations: ToolHints;
  /** Only with `alwaysLoad`. */
  _meta?: Record<string, unknown>;
}

/**
 * The part of a server the register methods use, `registerTool`, with the config it takes and the
 * context its handlers get beside their arguments (each entry's `ToolRegistrar` is one).
 */
export interface ToolRegistrarOf<Config, Context> {
  registerTool(
    name: string,
    config: Config,
    handler: (args: Record<string, unknown>, context: Context) => Promise<ToolCallResult>,
  ): unknown;
}

/**
 * What an adapter says of its SDK major: how to make a server, which schemas a tool is registered
 * with, where a handler finds the call's signal and who the host authenticated as its caller.
 */
export interface SdkSpecifics<Server, Schema, Context> {
  /** A new, empty server of this major. */
  newServer(info: { name: string; version: string }, options?: { instructions: string }): Server;
  /** The schemas `tool` is registered with: its arguments', and its structured content's when it has one. */
  schemas(tool: ToolDefinition): { inputSchema: Schema; outputSchema?: Schema };
  /** The call's abort signal, from what a handler of this major gets beside its arguments. */
  signal(context: Context): AbortSignal;
  /**
   * The caller as the host authenticated it (its AuthInfo `clientId`), from what a handler of this
   * major gets beside its arguments; undefined on an unauthenticated call. What it answers counts
   * only when it is a non-empty string.
   */
  caller(context: Context): string | undefined;
}

/** One SDK major as the tool classes of its entry use it. */
export interface SdkBinding<Server, Registrar> {
  /** Registers each of `tools` on `server`, in order. */
  mountTools(server: Registrar, tools: readonly ToolDefinition[]): void;
  /**
   * The server of `tools` (a TaskTools, TodoWriteTool or TodoTool of this entry): made at its first
   * use, named `name` and carrying `instructions` when given, with `tools.register` called on it;
   * the same server ever after.
   */
  ownServer(tools: { register(server: Server): void }, name: string, instructions?: string): Server;
}

/**
 * What a tool's handler gets beside its arguments, from what `sdk`'s handler got: the call's signal
 * and, when the host authenticated the call, its caller. A `clientId` that is not a non-empty
 * string (a host's bug, an SDK's loose type) counts as none: no one holds a lease by it.
 */
function callContext<Context>(
  sdk: Pick<SdkSpecifics<unknown, unknown, Context>, 'signal' | 'caller'>,
  context: Context,
): ToolCallContext {
  const signal = sdk.signal(context);
  const caller: unknown = sdk.caller(context);
  return typeof caller === 'string' && caller !== '' ? { signal, caller } : { signal };
}

/** Binds the tools to the SDK major `sdk` describes. */
export function bindSdk<Server, Schema, Context>(
  sdk: SdkSpecifics<Server, Schema, Context>,
): SdkBinding<Server, ToolRegistrarOf<ToolConfigOf<Schema>, Context>> {
  const built = new WeakMap<object, Server>();
  return {
    mountTools(server, tools) {
      for (const tool of tools) {
        // Fresh objects: what a server keeps may be changed there (a RegisteredTool's update), while
        // a definition is shared and frozen.
        const config: ToolConfigOf<Schema> = {
          title: tool.title,
          description: tool.description,
          ...sdk.schemas(tool),
          annotations: { ...tool.annotations },
          ...(tool._meta ? { _meta: { ...tool._meta } } : {}),
        };
        server.registerTool(tool.name, config, (args, context) => tool.handler(args, callContext(sdk, context)));
      }
    },
    ownServer(tools, name, instructions) {
      let server = built.get(tools);
      if (server === undefined) {
        server = sdk.newServer({ name, version: VERSION }, instructions === undefined ? undefined : { instructions });
        // Kept before the tools are registered on it: a register that reads `server` gets this one.
        built.set(tools, server);
        tools.register(server);
      }
      return server;
    },
  };
}
