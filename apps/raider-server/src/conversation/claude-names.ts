/** Tools under Claude Code's names: registered as TaskCreate, …; their arguments translated back (seed 003). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { claudeName, raiderInput } from '@raider/tool-names';

type RegisterTool = McpServer['registerTool'];

// raider's own tools, which Claude Code does not have, named in its style.
const RAIDER_ONLY: Readonly<Record<string, string>> = { task_claim: 'TaskClaim' };

/**
 * A view of `server` whose registerTool mounts each tool under its Claude Code name and turns
 * the arguments of a call back into raider's (seed 003) before the tool sees them.
 */
export function underClaudeNames(server: McpServer): McpServer {
  const registerTool = ((name: string, config: unknown, handler: (...a: unknown[]) => unknown) =>
    server.registerTool(
      claudeName(name) ?? RAIDER_ONLY[name] ?? name,
      config as never,
      ((args: Record<string, unknown>, extra: unknown) => handler(raiderInput(name, args), extra)) as never,
    )) as unknown as RegisterTool;
  return { registerTool } as McpServer;
}
