// The inboxes under real faults: PostgreSQL stopped and started again in the middle of a stream
// of sends and takes, and two node processes taking for one agent at once.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { DatabaseError } from '../src/index.js';
import { figure, sleep, tally } from './figures.js';
import { closeOpened, openLists as open } from './opened-lists.js';
import { startPostgres } from './postgres-server.js';

const url = inject('databaseUrl');

const plain = (to: string, text: string) => ({ to, text, notification: false });

/** Resolves once `condition()` holds, checking every 50 ms; rejects after `ms`, saying `what`. */
async function until(what: string, condition: () => boolean, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

describe('PostgreSQL restarts in the middle of a stream of messages', () => {
  it('nothing acknowledged is lost, sends during the outage are refused with a DatabaseError, takes resume', async () => {
    const server = await startPostgres();
    try {
      const sender = open({ connectionString: server.url, connectTimeoutMs: 500 }).list('stream').messages;
      const taker = open({ connectionString: server.url, connectTimeoutMs: 500 }).list('stream').messages;
      const acknowledged = new Set<string>();
      const mayHaveBeenSaved = new Set<string>();
      const refused: DatabaseError[] = [];
      const taken: string[] = [];
      let takenSince = 0;
      let firstTakenAt: number | undefined;
      let firstAcknowledgedAt: number | undefined;
      let failedDones = 0;
      let running = true;
      let draining = true;
      let counter = 0;

      const sending = (async () => {
        while (running) {
          counter += 1;
          const text = `m${counter}`;
          try {
            await sender.send(plain('bob', text));
            acknowledged.add(text);
            firstAcknowledgedAt ??= Date.now();
          } catch (error) {
            if (!DatabaseError.isInstance(error)) throw error;
            if ((error as DatabaseError).mayHaveBeenSaved) mayHaveBeenSaved.add(text);
            else refused.push(error as DatabaseError);
            await sleep(100);
          }
          await sleep(10);
        }
      })();
      const taking = (async () => {
        while (draining) {
          try {
            // A short lease: a done lost in the outage is taken again soon (at least once).
            const delivery = await taker.take('bob', { max: 10, leaseMs: 1000 });
            for (const message of delivery.messages) taken.push(message.text);
            takenSince += delivery.messages.length;
            if (delivery.messages.length > 0) firstTakenAt ??= Date.now();
            await delivery.done().catch(() => {
              failedDones += 1;
            });
            if (delivery.messages.length === 0) await sleep(50);
          } catch (error) {
            if (!DatabaseError.isInstance(error)) throw error;
            await sleep(100);
          }
        }
      })();

      await until('20 messages acknowledged before the outage', () => acknowledged.size >= 20);
      await server.stop();
      const before = acknowledged.size;
      await sleep(3000);
      expect(acknowledged.size, 'no send is acknowledged while the database is down').toBe(before);
      await server.start();
      const back = Date.now();
      takenSince = 0;
      firstTakenAt = undefined;
      firstAcknowledgedAt = undefined;
      await until('20 more messages acknowledged after the restart', () => acknowledged.size >= before + 20);
      figure('PostgreSQL back -> the first send acknowledged', (firstAcknowledgedAt ?? Number.NaN) - back);
      figure('PostgreSQL back -> 20 more sends acknowledged', Date.now() - back);
      running = false;
      await sending;
      // The taker drains the inbox (a take whose done was lost comes back after its lease); what
      // it never gets fails below.
      const allTaken = () => [...acknowledged].every((text) => taken.includes(text));
      await until('every acknowledged message taken', allTaken, 30_000).catch(() => {});
      draining = false;
      await taking;
      const seen = new Set(taken);

      expect(refused.length, 'sends during the outage are refused').toBeGreaterThan(0);
      for (const error of refused) {
        expect(error.message).toMatch(/^PostgreSQL at 127\.0\.0\.1:\d+\/raider .+; the message was not sent$/);
      }
      expect(takenSince, 'takes resume after the restart').toBeGreaterThan(0);
      expect(
        [...acknowledged].filter((text) => !seen.has(text)),
        'acknowledged but never taken',
      ).toEqual([]);
      expect(
        [...seen].filter((text) => !acknowledged.has(text) && !mayHaveBeenSaved.has(text)),
        'taken but refused',
      ).toEqual([]);
      // A message comes twice only when the done of its take was lost (at least once).
      if (taken.length > seen.size) expect(failedDones).toBeGreaterThan(0);
      figure('PostgreSQL back -> the first message taken', (firstTakenAt ?? Number.NaN) - back);
      tally(
        'restart',
        `${acknowledged.size} sends acknowledged, ${refused.length} refused, ${mayHaveBeenSaved.size} may have been saved, ${taken.length - seen.size} taken twice (${failedDones} dones lost)`,
      );
    } finally {
      await closeOpened();
      await server.destroy();
    }
  }, 120_000);
});

/** A child process taking `agent`'s messages of list `listId`, and the texts it took, take by take. */
async function messageTaker(listId: string, agent: string): Promise<{ child: ChildProcess; takes: string[][] }> {
  const script = fileURLToPath(new URL('./message-taker.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, url, listId, agent], { stdio: ['pipe', 'pipe', 'pipe'] });
  const takes: string[][] = [];
  let said = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    said += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
        const line = out.slice(0, end);
        out = out.slice(end + 1);
        if (line === 'ready') resolve();
        else takes.push(JSON.parse(line) as string[]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the taker exited (${code}) before it was ready: ${said}`)));
  });
  return { child, takes };
}

describe('two server processes taking for one agent', () => {
  it('each message is taken exactly once, each take in order', async () => {
    const id = `processes-${randomUUID()}`;
    const takers = await Promise.all([messageTaker(id, 'bob'), messageTaker(id, 'bob')]);
    try {
      const store = open({ connectionString: url }).list(id).messages;
      const sent: string[] = [];
      for (let index = 1; index <= 200; index += 1) {
        await store.send(plain('bob', `m${index}`));
        sent.push(`m${index}`);
      }
      const all = () => takers.flatMap((taker) => taker.takes.flat());
      await until('every message taken', () => all().length >= sent.length);
      for (const taker of takers) taker.child.stdin?.end('stop\n');
      await Promise.all(takers.map((taker) => new Promise((resolve) => taker.child.once('exit', resolve))));
      const taken = all();
      expect(new Set(taken).size, 'no message taken twice').toBe(taken.length);
      expect([...taken].sort()).toEqual([...sent].sort());
      for (const taker of takers) {
        for (const take of taker.takes) {
          const order = take.map((text) => Number(text.slice(1)));
          expect(order).toEqual([...order].sort((a, b) => a - b));
        }
      }
      tally('two processes taking', `${takers.map((taker) => taker.takes.flat().length).join(' + ')} messages`);
      expect(await store.peek('bob')).toEqual([]);
    } finally {
      for (const taker of takers) taker.child.kill('SIGKILL');
    }
  }, 120_000);
});
