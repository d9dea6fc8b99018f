/**
 * TodoTool of the `./v2` entry: rpiv-todo's `todo` tool mounted on `@modelcontextprotocol/server`
 * 2.x (the SDK-neutral core is TodoToolCore; this adds `register` and `server` for v2).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { TodoToolCore } from '../todo/todo-tool-core.js';
import { type ToolRegistrar, V2 } from './tool-registrar.js';

/**
 * rpiv-todo's `todo` tool on MCP SDK v2 (`@modelcontextprotocol/server`): actions create, update,
 * list, get, delete and clear on one list, with tombstones, dependency checks before any change,
 * and a result that carries the whole state. `@raider/todo-tools` has the same class for SDK v1.
 */
export class TodoTool extends TodoToolCore {
  /** Mounts the MCP tool `todo` on a server you own: a v2 `McpServer`, or anything with its `registerTool`. */
  register(server: ToolRegistrar): void {
    V2.mountTools(server, this.definitions());
  }

  /** A v2 McpServer with the tool `todo` and `instructions` (TODO_GUIDANCE unless replaced), built once. */
  get server(): McpServer {
    return V2.ownServer(this, 'raider-todo', this.instructions);
  }
}
