/**
 * TodoWriteTool of the `./v2` entry: todo_write mounted on `@modelcontextprotocol/server` 2.x
 * (the SDK-neutral core is TodoWriteToolCore; this adds `register` and `server` for v2). The same
 * options, direct API and answers as the `.` entry's.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { TodoWriteToolCore } from '../todo-write/todo-write-tool-core.js';
import { type ToolRegistrar, V2 } from './tool-registrar.js';

/**
 * todo_write, shaped after Claude Code's TodoWrite, on MCP SDK v2 (`@modelcontextprotocol/server`):
 * the model sends the whole list every call. It holds no list of its own (it checks the list it
 * is given and hands it to `onUpdate`). `@raider/todo-tools` has the same class for SDK v1.
 */
export class TodoWriteTool extends TodoWriteToolCore {
  /** A v2 McpServer with todo_write, built once. */
  get server(): McpServer {
    return V2.ownServer(this, 'raider-todo-write');
  }

  /** Mounts todo_write on a server you own: a v2 `McpServer`, or anything with its `registerTool`. */
  register(server: ToolRegistrar): void {
    V2.mountTools(server, this.definitions());
  }
}
