/**
 * TodoTool of the `.` entry: rpiv-todo's `todo` tool mounted on `@modelcontextprotocol/sdk` 1.x
 * (the SDK-neutral core is TodoToolCore; this adds `register` and `server` for v1).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TodoToolCore } from '../todo/todo-tool-core.js';
import { type ToolRegistrar, V1 } from './tool-registrar.js';

/**
 * rpiv-todo's `todo` tool on MCP SDK v1 (`@modelcontextprotocol/sdk`): actions create, update,
 * list, get, delete and clear on one list, with tombstones, dependency checks before any change,
 * and a result that carries the whole state. `@raider/todo-tools/v2` has the same class for SDK v2.
 */
export class TodoTool extends TodoToolCore {
  /** Mounts the MCP tool `todo` on a server you own: a v1 `McpServer`, or anything with its `registerTool`. */
  register(server: ToolRegistrar): void {
    V1.mountTools(server, this.definitions());
  }

  /** An McpServer with the tool `todo` and `instructions` (TODO_GUIDANCE unless replaced), built once. */
  get server(): McpServer {
    return V1.ownServer(this, 'raider-todo', this.instructions);
  }
}
