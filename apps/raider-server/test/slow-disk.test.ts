// A write of the file store that waits for a slow disk holds only its own call: over HTTP, in one
// server process with a data dir, another session's call on another list is answered meanwhile,
// and timers fire. In process (the public startHttp, SDK clients over loopback), so that the
// stand-in for the slow disk can hold the store's next fsync until the test lets it go (the store
// fsyncs off the event loop); were it to fsync on the event loop, the stand-in would hold the
// whole process for a second and the order of events would be another. No time is measured.
import * as fs from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HttpServer, readOptions, startHttp } from '../src/index.js';
import { textOf } from './helpers.js';

// The store's fsync in both forms, spies over the real ones (the file store is bundled into the
// server's imports from its dist, which imports node:fs).
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, fsync: vi.fn(real.fsync), fsyncSync: vi.fn(real.fsyncSync) };
});

const realFsync = vi.mocked(fs.fsync).getMockImplementation() as typeof fs.fsync;
const realFsyncSync = vi.mocked(fs.fsyncSync).getMockImplementation() as typeof fs.fsyncSync;

/** The slow disk: armed, the next fsync tells it began and waits until let go. */
let armed = false;
let began: () => void = () => {};
let released: Promise<void> = Promise.resolve();
let letGoNow: () => void = () => {};

/** Makes the next fsync, in either form, the slow one: `reached` once it began, `letGo()` lets it end. */
function hold(): { reached: Promise<void>; letGo: () => void } {
  armed = true;
  released = new Promise<void>((resolve) => {
    letGoNow = resolve;
  });
  const reached = new Promise<void>((resolve) => {
    began = resolve;
  });
  return { reached, letGo: () => letGoNow() };
}

vi.mocked(fs.fsync).mockImplementation(((fd: number, callback: fs.NoParamCallback) => {
  if (!armed) return realFsync(fd, callback);
  armed = false;
  began();
  void released.then(() => realFsync(fd, callback));
}) as typeof fs.fsync);
vi.mocked(fs.fsyncSync).mockImplementation((fd) => {
  if (armed) {
    armed = false;
    began();
    // The same disk under a synchronous call: the whole process waits a second.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
  }
  realFsyncSync(fd);
});

let server: HttpServer;
const clients: Client[] = [];

/** An SDK client of `server` on list `list` (its own session). */
async function session(list: string): Promise<Client> {
  const client = new Client({ name: 'slow-disk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { 'X-Raider-List': list } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'raider-slow-disk-'));
  server = await startHttp({ ...readOptions(['--http', '--port', '0', '--data-dir', dataDir], {}) });
});
afterAll(async () => {
  armed = false;
  letGoNow();
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
  await server?.close();
});

describe('a file store write on a slow disk, in an HTTP server', () => {
  it("holds only its own session's call: another session's task_create is answered and timers fire meanwhile", async () => {
    const [alpha, beta] = await Promise.all([session('alpha'), session('beta')]);
    const create = (client: Client, subject: string) =>
      client.callTool({ name: 'task_create', arguments: { subject, description: '' } });
    expect(textOf(await create(beta, 'Beta first'))).toBe('Task #1 created successfully: Beta first');
    const events: string[] = [];
    const disk = hold();
    const alphaAnswer = create(alpha, 'Alpha').then((result) => {
      events.push('alpha answered');
      return result;
    });
    await disk.reached;
    events.push("alpha's write is waiting for the disk");
    const betaAnswer = await create(beta, 'Beta second');
    events.push('beta answered');
    await new Promise((resolve) => setTimeout(resolve, 1));
    events.push('a timer fired');
    expect(textOf(betaAnswer)).toBe('Task #2 created successfully: Beta second');
    expect(events).toEqual(["alpha's write is waiting for the disk", 'beta answered', 'a timer fired']);
    disk.letGo();
    expect(textOf(await alphaAnswer)).toBe('Task #1 created successfully: Alpha');
    expect(events.at(-1)).toBe('alpha answered');
    expect(textOf(await alpha.callTool({ name: 'task_list', arguments: {} }))).toBe('#1 [pending] Alpha');
  });
});
