/**
 * TodoWriteTool of the `.` entry: todo_write mounted on `@modelcontextprotocol/sdk` 1.x (the
 * SDK-neutral core is TodoWriteToolCore; this adds `register` and `server` for v1).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TodoWriteToolCore } from '../todo-write/todo-write-tool-core.js';
import { type ToolRegistrar, V1 } from './tool-registrar.js';

/**
 * todo_write, shaped after Claude Code's TodoWrite, on MCP SDK v1 (`@modelcontextprotocol/sdk`):
 * the model sends the whole list every call. It holds no list of its own (it checks the list it
 * is given and hands it to `onUpdate`). `@raider/todo-tools/v2` has the same class for SDK v2.
 */
export class TodoWriteTool extends TodoWriteToolCore {
  /** An McpServer with todo_write, built once. */
  get server(): McpServer {
    return V1.ownServer(this, 'raider-todo-write');
  }

  /** Mounts todo_write on a server you own: a v1 `McpServer`, or anything with its `registerTool`. */
  register(server: ToolRegistrar): void {
    V1.mountTools(server, this.definitions());
  }
}
