/**
 * TodoTools of the `./v2` entry: the task tools and todo_write mounted on
 * `@modelcontextprotocol/server` 2.x (the SDK-neutral core is TodoToolsCore; this adds the v2
 * register methods and servers). The same options, direct API and answers as the `.` entry's.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { TodoToolsCore } from '../todo-tools-core.js';
import { VERSION } from '../version.js';
import { mountTools, type ToolRegistrar } from './tool-registrar.js';

/**
 * The task-list tools of one conversation, on MCP SDK v2 (`@modelcontextprotocol/server`). The
 * task tools share one list held by this object; todo_write holds none (it checks the list it is
 * given and hands it to `onUpdate`). `@raider/todo-tools` has the same class for SDK v1.
 *
 * Mutating calls run one at a time (a hook may be async), so the list stays consistent and ids
 * unique under concurrent calls. Create, update and get cost the same whatever the size of the
 * list; list is linear in it.
 */
export class TodoTools extends TodoToolsCore {
  private builtTaskServer: McpServer | undefined;
  private builtServer: McpServer | undefined;

  /** A v2 McpServer with task_create, task_update, task_list and task_get on this object's list, built once. */
  get taskServer(): McpServer {
    if (!this.builtTaskServer) {
      this.builtTaskServer = new McpServer({ name: 'raider-tasks', version: VERSION });
      this.registerTaskTools(this.builtTaskServer);
    }
    return this.builtTaskServer;
  }

  /** A v2 McpServer with todo_write, built once. */
  get server(): McpServer {
    if (!this.builtServer) {
      this.builtServer = new McpServer({ name: 'raider-todo-write', version: VERSION });
      this.registerTodoWrite(this.builtServer);
    }
    return this.builtServer;
  }

  /**
   * Mounts task_create, task_update, task_list and task_get (on this object's list) on a server
   * you own: a v2 `McpServer`, or anything with its `registerTool` (see ToolRegistrar).
   */
  registerTaskTools(server: ToolRegistrar): void {
    mountTools(server, this.taskToolDefinitions());
  }

  /**
   * Mounts task_claim (on this object's list) on a server you own: atomic claims, opt-in because a
   * tool definition costs context.
   */
  registerTaskClaim(server: ToolRegistrar): void {
    mountTools(server, this.taskClaimDefinitions());
  }

  /** Mounts todo_write on a server you own. */
  registerTodoWrite(server: ToolRegistrar): void {
    mountTools(server, this.todoWriteDefinitions());
  }
}
