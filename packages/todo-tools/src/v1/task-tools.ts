/**
 * TaskTools of the `.` entry: Claude Code's task tools mounted on `@modelcontextprotocol/sdk`
 * 1.x (the SDK-neutral core is TaskToolsCore; this adds the v1 register methods and server).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TaskToolsCore } from '../tasks/task-tools-core.js';
import { type ToolRegistrar, V1 } from './tool-registrar.js';

/**
 * Claude Code's task tools (task_create, task_update, task_list, task_get, and the opt-in
 * task_claim) on one task list, on MCP SDK v1 (`@modelcontextprotocol/sdk`). The tools share the
 * list held by this object. `@raider/todo-tools/v2` has the same class for SDK v2.
 *
 * Mutating calls run one at a time (a hook may be async), so the list stays consistent and ids
 * unique under concurrent calls. Create, update and get cost the same whatever the size of the
 * list; list is linear in it.
 */
export class TaskTools extends TaskToolsCore {
  /** An McpServer with task_create, task_update, task_list and task_get on this object's list, built once. */
  get server(): McpServer {
    return V1.ownServer(this, 'raider-tasks');
  }

  /**
   * Mounts task_create, task_update, task_list and task_get (on this object's list) on a server
   * you own: a v1 `McpServer`, or anything with its `registerTool` (see ToolRegistrar).
   */
  register(server: ToolRegistrar): void {
    V1.mountTools(server, this.definitions());
  }

  /**
   * Mounts task_claim (on this object's list) on a server you own: atomic claims, opt-in because a
   * tool definition costs context.
   */
  registerClaim(server: ToolRegistrar): void {
    V1.mountTools(server, this.claimDefinitions());
  }
}
