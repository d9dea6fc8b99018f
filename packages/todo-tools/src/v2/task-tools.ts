/**
 * TaskTools of the `./v2` entry: Claude Code's task tools mounted on
 * `@modelcontextprotocol/server` 2.x (the SDK-neutral core is TaskToolsCore; this adds the v2
 * register methods and server). The same options, direct API and answers as the `.` entry's.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { TaskToolsCore } from '../tasks/task-tools-core.js';
import { type ToolRegistrar, V2 } from './tool-registrar.js';

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
  /** A v2 McpServer with task_create, task_update, task_list and task_get on this object's list, built once. */
  get server(): McpServer {
    return V2.ownServer(this, 'raider-tasks');
  }

  /**
   * Mounts task_create, task_update, task_list and task_get (on this object's list) on a server
   * you own: a v2 `McpServer`, or anything with its `registerTool` (see ToolRegistrar).
   */
  register(server: ToolRegistrar): void {
    V2.mountTools(server, this.definitions());
  }

  /**
   * Mounts task_claim (on this object's list) on a server you own: atomic claims, opt-in because a
   * tool definition costs context.
   */
  registerClaim(server: ToolRegistrar): void {
    V2.mountTools(server, this.claimDefinitions());
  }
}
