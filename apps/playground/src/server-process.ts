/**
 * Starting the built raider-server (as `npx @raider/server` would) and connecting a client in
 * either protocol era: the 2025 era with the SDK v1 `Client` (initialize, a session over HTTP),
 * the 2026-07-28 revision with the SDK v2 `Client` pinned to it (no initialize, no session).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as LegacyTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The built command of @raider/server. */
export function serverCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@raider/server/package.json')), 'dist', 'cli.js');
}

/** The protocol eras the server speaks: 2025 (initialize, sessions; SDK v1) and 2026-07-28 (SDK v2). */
export const ERAS = ['legacy', 'modern'] as const;
/** A protocol era. */
export type Era = (typeof ERAS)[number];
/** The protocol revision each era's client asks for (the label a run carries). */
export const ERA_VERSION: Record<Era, string> = { legacy: '2025-11-25', modern: '2026-07-28' };

/** What the person answers to a question (an elicitation result, in either SDK's shape). */
export type ElicitAnswer = {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
};

/** Answers the server's elicitation requests; undefined makes the client cancel. */
export type ElicitationAnswerer = (message: string) => ElicitAnswer | undefined;

/**
 * How to reach a server: spawn one over stdio with flags, or connect to a running one over HTTP
 * (`list`: sent as `X-Raider-List`, the list a 2026-era request is on when the server has no --list).
 */
export type Target = { kind: 'stdio'; args: string[] } | { kind: 'http'; url: string; list?: string };

/** A tool result as the playground reads it. */
export interface ToolResult {
  content: { type: string; text?: string }[];
  isError: boolean;
}

/** The client calls the playground makes, the same in both eras. */
export interface PlaygroundClient {
  readonly era: Era;
  /** The revision the connection negotiated (2025-11-25, 2026-07-28). */
  readonly protocolVersion: string;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolResult>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: string }[] }>;
  close(): Promise<void>;
}

const INFO = { name: 'raider-playground', version: '1.0.0' };

/** What a call returned, in the playground's shape (content other than text keeps its type). */
function toolResult(result: Record<string, unknown>): ToolResult {
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  return { content, isError: result.isError === true };
}

function stdioParams(args: string[]) {
  return {
    command: process.execPath,
    args: [serverCli(), ...args],
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
    stderr: 'ignore' as const,
  };
}

function listHeaders(target: Target): Record<string, string> {
  return target.kind === 'http' && target.list ? { 'X-Raider-List': encodeURIComponent(target.list) } : {};
}

async function connectLegacy(target: Target, answer?: ElicitationAnswerer): Promise<PlaygroundClient> {
  const client = new LegacyClient(INFO, answer ? { capabilities: { elicitation: { form: {} } } } : {});
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message) ?? { action: 'cancel' });
  }
  const transport: LegacyTransport =
    target.kind === 'stdio'
      ? new LegacyStdioTransport(stdioParams(target.args))
      : new LegacyHttpTransport(new URL(target.url), { requestInit: { headers: listHeaders(target) } });
  // The v1 client hands the transport the version initialize agreed on: record it on the way.
  let negotiated = '';
  const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    negotiated = version;
    setProtocolVersion?.(version);
  };
  await client.connect(transport);
  return {
    era: 'legacy',
    protocolVersion: negotiated,
    callTool: async (params) => toolResult(await client.callTool(params)),
    listTools: () => client.listTools(),
    readResource: (params) => client.readResource(params),
    close: () => client.close(),
  };
}

async function connectModern(target: Target, answer?: ElicitationAnswerer): Promise<PlaygroundClient> {
  const client = new ModernClient(INFO, {
    versionNegotiation: { mode: { pin: ERA_VERSION.modern } },
    ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}),
  });
  // In this era ask_user answers input_required: the client asks through this same handler and retries.
  if (answer) {
    client.setRequestHandler(
      'elicitation/create',
      async (request) => answer(request.params.message) ?? { action: 'cancel' },
    );
  }
  const transport =
    target.kind === 'stdio'
      ? new ModernStdioTransport(stdioParams(target.args))
      : new ModernHttpTransport(new URL(target.url), { requestInit: { headers: listHeaders(target) } });
  await client.connect(transport);
  const negotiated = client.getNegotiatedProtocolVersion() ?? '';
  if (client.getProtocolEra() !== 'modern') {
    await client.close();
    throw new Error(`expected the 2026-07-28 era, the connection negotiated ${negotiated || 'nothing'}`);
  }
  return {
    era: 'modern',
    protocolVersion: negotiated,
    callTool: async (params) => toolResult(await client.callTool(params)),
    listTools: () => client.listTools(),
    readResource: (params) => client.readResource(params),
    close: () => client.close(),
  };
}

/** A connected client of `era` (default the 2025 era), eliciting when `answer` is given. */
export function connect(
  target: Target,
  answer?: ElicitationAnswerer,
  options: { era?: Era } = {},
): Promise<PlaygroundClient> {
  return (options.era ?? 'legacy') === 'modern' ? connectModern(target, answer) : connectLegacy(target, answer);
}

/** A raider-server started with --http on a free port. */
export interface HttpServerProcess {
  url: string;
  stop(): Promise<number | null>;
}

/** Starts the built server with `--http --port 0` and the given flags; resolves with its URL. */
export function spawnHttpServer(args: string[] = []): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [serverCli(), '--http', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'info' },
  });
  let log = '';
  let listening = false;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`raider-server --http exited ${code}: ${log}`));
    child.once('exit', onExit);
    // Read on after the address (the pipe must not fill), keeping nothing.
    child.stderr?.on('data', (chunk: Buffer) => {
      if (listening) return;
      log += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(log);
      if (!match) return;
      listening = true;
      child.off('exit', onExit);
      resolve({
        url: match[1] as string,
        stop: () =>
          new Promise((done) => {
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** How a demo reaches a server of its own: its era and its transport. */
export interface Reach {
  era: Era;
  transport: 'stdio' | 'http';
}

/** A server of one's own and a client on it; `stop` closes the client and ends the server. */
export interface OwnServer {
  client: PlaygroundClient;
  stop(): Promise<void>;
}

/**
 * Starts the built server with `args` and connects a client of `reach.era`: over stdio the
 * client spawns it, over HTTP it is started with --http on a free port first.
 */
export async function startServer(args: string[], reach: Reach): Promise<OwnServer> {
  if (reach.transport === 'stdio') {
    const client = await connect({ kind: 'stdio', args }, undefined, { era: reach.era });
    return { client, stop: () => client.close() };
  }
  const server = await spawnHttpServer(args);
  try {
    const client = await connect({ kind: 'http', url: server.url }, undefined, { era: reach.era });
    return {
      client,
      stop: async () => {
        await client.close().catch(() => {});
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
