/**
 * TodoWriteTool of the `./v2` entry: todo_write mounted on `@modelcontextprotocol/server` 2.x
 * (the SDK-neutral core is TodoWriteToolCore; this adds `register` and `server` for v2). The same
 * options, direct API and answers as the `.` entry's.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { TodoWriteToolCore } from '../todo-write/todo-write-tool-core.js';
import { VERSION } from '../version.js';
import { mountTools, type ToolRegistrar } from './tool-registrar.js';

/**
 * todo_write, shaped after Claude Code's TodoWrite, on MCP SDK v2 (`@modelcontextprotocol/server`):
 * the model sends the whole list every call. It holds no list of its own (it checks the list it
 * is given and hands it to `onUpdate`). `@raider/todo-tools` has the same class for SDK v1.
 */
export class TodoWriteTool extends TodoWriteToolCore {
  private built: McpServer | undefined;

  /** A v2 McpServer with todo_write, built once. */
  get server(): McpServer {
    if (!this.built) {
      this.built = new McpServer({ name: 'raider-todo-write', version: VERSION });
      this.register(this.built);
    }
    return this.built;
  }

  /** Mounts todo_write on a server you own: a v2 `McpServer`, or anything with its `registerTool`. */
  register(server: ToolRegistrar): void {
    mountTools(server, this.definitions());
  }
}
