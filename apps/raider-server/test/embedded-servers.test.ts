// Servers embedded in one process (the package's startHttp, as a program that hosts them calls
// it): each has a runtime of its own, which holds its database pool, its lists shared in memory,
// its desks of open questions and its inboxes, and closing one closes only what it made.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type HttpServer, readOptions, startHttp } from '../src/index.js';
import { textOf } from './helpers.js';

const databaseUrl = inject('databaseUrl');

const servers: HttpServer[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** An embedded HTTP server on a free port with `args`, closed after the test (or by the test). */
async function serve(args: string[]): Promise<HttpServer> {
  const server = await startHttp(readOptions(['--http', '--port', '0', '--log-level', 'error', ...args], {}));
  servers.push(server);
  return server;
}

/** A 2025-era client of `server`; with `elicit`, one that can be asked a form and never answers it. */
async function connect(server: HttpServer, elicit = false): Promise<Client> {
  const client = new Client(
    { name: 'embedded-test', version: '1.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, () => new Promise(() => {}));
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  clients.push(client);
  return client;
}

describe('two servers embedded in one process', () => {
  it('on one PostgreSQL database: one closes, and the other goes on hearing every change made elsewhere', async () => {
    const list = `embedded-${randomUUID()}`;
    const args = ['--database-url', databaseUrl, '--list', list];
    const closing = await serve(args);
    const hearing = await serve(args);
    const writing = await serve(args);
    const listener = await connect(hearing);
    let heard = 0;
    listener.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      if (notification.params.uri === 'raider://tasks') heard += 1;
    });
    await listener.subscribeResource({ uri: 'raider://tasks' });
    const writer = await connect(writing);
    // Both servers serve the list before one closes (the closing one has a session on it too).
    await connect(closing).then((client) => client.callTool({ name: 'task_list', arguments: {} }));
    /**
     * A change made through the writing server, and the hearing server telling its subscriber of
     * it. A server hears a list's changes more than once at times (a catch-up when its LISTEN
     * connection comes up), so each change waits for one more notification, not a count.
     */
    const heardAfter = async (subject: string, id: number) => {
      const before = heard;
      const answer = textOf(await writer.callTool({ name: 'task_create', arguments: { subject, description: '' } }));
      expect(answer).toBe(`Task #${id} created successfully: ${subject}`);
      await expect.poll(() => heard, { timeout: 20_000 }).toBeGreaterThan(before);
    };

    await heardAfter('Before 1', 1);
    await heardAfter('Before 2', 2);
    await closing.close();
    servers.splice(servers.indexOf(closing), 1);
    // Three changes after the close: a server that lost its LISTEN connection with the other's
    // close hears at most a last catch-up, never all three.
    await heardAfter('After 1', 3);
    await heardAfter('After 2', 4);
    await heardAfter('After 3', 5);
    const read = await listener.readResource({ uri: 'raider://tasks' });
    const { tasks } = JSON.parse((read.contents[0] as { text: string }).text) as { tasks: { content: string }[] };
    expect(tasks.map((task) => task.content)).toEqual(['Before 1', 'Before 2', 'After 1', 'After 2', 'After 3']);
  }, 120_000);

  it("keeps question ids unique in the process: a resume of one server's question on another finds no question of its own", async () => {
    const args = ['--list', `questions-${randomUUID()}`, '--wait-deadline', '1'];
    const [first, second] = [await serve(args), await serve(args)];
    const ask = async (server: HttpServer, question: string) => {
      const client = await connect(server, true);
      const asked = textOf(await client.callTool({ name: 'ask_user', arguments: { question } }));
      const id = /still open as (ask_\d+);/.exec(asked ?? '')?.[1];
      expect(id, asked).toBeDefined();
      return { client, id: id as string };
    };
    const one = await ask(first, 'Which database?');
    const two = await ask(second, 'Which port?');
    expect(two.id).not.toBe(one.id);
    const resumed = await two.client.callTool({ name: 'ask_user', arguments: { resume: one.id } });
    expect(resumed.isError).toBe(true);
    expect(textOf(resumed)).toBe(
      `Error: resume: no open question ${one.id} on this server: it was never asked here, its answer expired, or the server restarted (open questions live in the server's memory and a restart loses them). Ask again if you still need the answer.`,
    );
  }, 60_000);
});
