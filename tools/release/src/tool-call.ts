// One call through an MCP client (SDK v1) to a raider-server started the way a client's
// configuration starts it: over stdio from a command, or over Streamable HTTP at a URL.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What a client saw: the tools listed, the tool called and the text it answered. */
export interface ToolCall {
  serverName: string;
  serverVersion: string;
  tools: string[];
  called: string;
  text: string;
}

/** The call made: task_create in the tasks family, a create of the `todo` family otherwise. */
function firstCall(tools: string[]): { name: string; arguments: Record<string, unknown> } {
  const taskCreate = tools.find((name) => name === 'task_create' || name === 'TaskCreate');
  if (taskCreate) return { name: taskCreate, arguments: { subject: 'Probe', description: '' } };
  if (tools.includes('todo')) return { name: 'todo', arguments: { action: 'create', subject: 'Probe' } };
  throw new Error(`no task tool among ${tools.join(', ')}`);
}

async function callThrough(transport: Transport): Promise<ToolCall> {
  const client = new Client({ name: 'raider-release-check', version: '1.0.0' });
  await client.connect(transport, { timeout: 180_000 });
  try {
    const server = client.getServerVersion();
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const call = firstCall(tools);
    const result = (await client.callTool(call)) as { content?: { type: string; text?: string }[] };
    return {
      serverName: server?.name ?? '',
      serverVersion: server?.version ?? '',
      tools,
      called: call.name,
      text: result.content?.[0]?.text ?? '',
    };
  } finally {
    await client.close();
  }
}

/** Starts `command args` as a stdio server with `env` (a client's own variables plus the configuration's), initializes, lists and calls one tool. */
export async function callOverStdio(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<ToolCall> {
  let said = '';
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => {
    said += chunk;
  });
  try {
    return await callThrough(transport);
  } catch (error) {
    throw new Error(
      `${command} ${args.join(' ')} over stdio: ${(error as Error).message}\n${said.trim().split('\n').slice(-20).join('\n')}`,
    );
  }
}

/** Connects to `url` over Streamable HTTP (with `headers`), initializes, lists and calls one tool. */
export function callOverHttp(url: string, headers: Record<string, string> = {}): Promise<ToolCall> {
  return callThrough(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
}
