import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** The built command, as `npx @raider/server` runs it. */
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export type Elicit = (message: string, signal: AbortSignal) => Promise<ElicitResult> | ElicitResult;

/** Starts the built server over stdio with `args` and connects an SDK client (eliciting when `elicit` is given). */
export async function stdioClient(args: string[], elicit?: Elicit, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error', ...env },
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'raider-test', version: '1.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(request.params.message, extra.signal));
  }
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result. */
export const textOf = (result: unknown): string | undefined =>
  (result as { content?: { type: string; text: string }[] }).content?.[0]?.text;
