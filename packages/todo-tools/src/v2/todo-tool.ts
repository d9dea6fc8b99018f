/**
 * TodoTool of the `./v2` entry: rpiv-todo's `todo` tool mounted on `@modelcontextprotocol/server`
 * 2.x (the SDK-neutral core is TodoToolCore; this adds `register` and `server` for v2).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { TodoToolCore } from '../todo/todo-tool-core.js';
import { VERSION } from '../version.js';
import { mountTools, type ToolRegistrar } from './tool-registrar.js';

/**
 * rpiv-todo's `todo` tool on MCP SDK v2 (`@modelcontextprotocol/server`): actions create, update,
 * list, get, delete and clear on one list, with tombstones, dependency checks before any change,
 * and a result that carries the whole state. `@raider/todo-tools` has the same class for SDK v1.
 */
export class TodoTool extends TodoToolCore {
  private built: McpServer | undefined;

  /** Mounts the MCP tool `todo` on a server you own: a v2 `McpServer`, or anything with its `registerTool`. */
  register(server: ToolRegistrar): void {
    mountTools(server, this.definitions());
  }

  /** A v2 McpServer with the tool `todo` and `instructions` (TODO_GUIDANCE unless replaced), built once. */
  get server(): McpServer {
    if (!this.built) {
      this.built = new McpServer({ name: 'raider-todo', version: VERSION }, { instructions: this.instructions });
      this.register(this.built);
    }
    return this.built;
  }
}
