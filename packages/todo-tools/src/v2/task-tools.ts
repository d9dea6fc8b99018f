/**
 * TaskTools of the `./v2` entry: Claude Code's task tools mounted on
 * `@modelcontextprotocol/server` 2.x (the SDK-neutral core is TaskToolsCore; this adds the v2
 * register methods and server). The same options, direct API and answers as the `.` entry's.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { TaskToolsCore } from '../tasks/task-tools-core.js';
import { VERSION } from '../version.js';
import { mountTools, type ToolRegistrar } from './tool-registrar.js';

/**
 * Claude Code's task tools (task_create, task_update, task_list, task_get, and the opt-in
 * task_claim) on one task list, on MCP SDK v2 (`@modelcontextprotocol/server`). The tools share the
 * list held by this object. `@raider/todo-tools` has the same class for SDK v1.
 *
 * Mutating calls run one at a time (a hook may be async), so the list stays consistent and ids
 * unique under concurrent calls. Create, update and get cost the same whatever the size of the
 * list; list is linear in it.
 */
export class TaskTools extends TaskToolsCore {
  private built: McpServer | undefined;

  /** A v2 McpServer with task_create, task_update, task_list and task_get on this object's list, built once. */
  get server(): McpServer {
    if (!this.built) {
      this.built = new McpServer({ name: 'raider-tasks', version: VERSION });
      this.register(this.built);
    }
    return this.built;
  }

  /**
   * Mounts task_create, task_update, task_list and task_get (on this object's list) on a server
   * you own: a v2 `McpServer`, or anything with its `registerTool` (see ToolRegistrar).
   */
  register(server: ToolRegistrar): void {
    mountTools(server, this.definitions());
  }

  /**
   * Mounts task_claim (on this object's list) on a server you own: atomic claims, opt-in because a
   * tool definition costs context.
   */
  registerClaim(server: ToolRegistrar): void {
    mountTools(server, this.claimDefinitions());
  }
}
