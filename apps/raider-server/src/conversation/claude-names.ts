/** Tools under Claude Code's names (TaskCreate, …), their arguments translated back with @raider/tool-names. */

import type { ToolRegistrar } from '@raider/todo-tools/v2';
import { claudeName, raiderInput } from '@raider/tool-names';

// raider's own tools, which Claude Code does not have, named in its style.
const RAIDER_ONLY: Readonly<Record<string, string>> = { task_claim: 'TaskClaim' };

/**
 * A registrar over `server` that mounts each tool under its Claude Code name and turns the
 * arguments of a call back into raider's (`raiderInput` of @raider/tool-names) before the tool
 * sees them.
 */
export function underClaudeNames<R extends ToolRegistrar>(server: R): ToolRegistrar {
  return {
    registerTool: (name, config, handler) =>
      server.registerTool(claudeName(name) ?? RAIDER_ONLY[name] ?? name, config, (args, ctx) =>
        handler(raiderInput(name, args as Record<string, unknown>), ctx),
      ),
  };
}
