/** Starting the built raider-server (as `npx @raider/server` would) and connecting an SDK client. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** The built command of @raider/server. */
export function serverCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@raider/server/package.json')), 'dist', 'cli.js');
}

/** Answers the server's elicitation requests; undefined makes the client cancel. */
export type ElicitationAnswerer = (message: string) => ElicitResult | undefined;

/** How to reach a server: spawn one over stdio with flags, or connect to a running one over HTTP. */
export type Target = { kind: 'stdio'; args: string[] } | { kind: 'http'; url: string };

/** A connected SDK client, eliciting when `answer` is given. */
export async function connect(target: Target, answer?: ElicitationAnswerer): Promise<Client> {
  const client = new Client(
    { name: 'raider-playground', version: '1.0.0' },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message) ?? { action: 'cancel' });
  }
  const transport =
    target.kind === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [serverCli(), ...target.args],
          env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
          stderr: 'ignore',
        })
      : new StreamableHTTPClientTransport(new URL(target.url));
  await client.connect(transport);
  return client;
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
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`raider-server --http exited ${code}: ${log}`));
    child.once('exit', onExit);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(log);
      if (!match) return;
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
