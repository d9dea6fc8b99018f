// Agents that talk, at scale and through failures (issue 27): three real raider-server processes
// (`--http --team`) on one list in a PostgreSQL of this file's own, 20 agents on each, every agent
// its own MCP session. The agents exchange 2 000 messages in three phases:
// - clean: every acknowledged send is taken exactly once by its recipient, in order per sender;
// - one server killed with SIGKILL mid-stream and started again (its agents reconnect, new
//   sessions): nothing acknowledged is lost, and a message comes twice only as the README allows
//   (its first copy answered by the killed process, the second after the 30-s lease);
// - PostgreSQL stopped mid-stream and started again on its data: a send answers an error or is
//   acknowledged, every acknowledged one is taken, and the servers recover by themselves.
// Then a task completed through one server wakes the blocked task's owner waiting on another.
// Figures (counts, duplicates, latency) are logged, never asserted: this runs on busy machines.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql } from '../../../packages/postgres-store/test/postgres-faults.js';
import { startPostgres, type TestPostgres } from '../../../packages/postgres-store/test/postgres-server.js';
import { type AgentSession, connectAgent, type ServerProcess, spawnServer, stopServer } from './team-processes.js';

const SERVERS = 3;
const AGENTS_PER_SERVER = 20;
/** The messages of each phase: 2 000 in all. */
const PHASE_MESSAGES = { clean: 1_000, kill: 500, outage: 500 } as const;
type Phase = keyof typeof PHASE_MESSAGES;
const LIST = 'team';
/** Each receiver's wait: short, so the receivers stop soon after the test asks them to. */
const WAIT_SECONDS = 3;
/** The server killed in the kill phase (its agents' sessions break). */
const KILLED = 1;
/** The README's delivery lease: a message the killed process had taken is free again after it. */
const LEASE_MS = 30_000;
/** How long PostgreSQL stays down: past the store's 5-s connect timeout, so sends meanwhile fail. */
const OUTAGE_MS = 6_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves true once `done()` holds (after `look()` each time), false after `timeoutMs`. */
async function until(done: () => boolean, timeoutMs: number, look?: () => Promise<void>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await look?.();
    if (done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(look ? 500 : 100);
  }
}

/** A server slot: the process serving it now, or the one starting (`up`), and how many were started. */
interface Home {
  up: Promise<ServerProcess>;
  generation: number;
}

/** An agent's session, and the generation of the server process it is on. */
interface Conn {
  session: AgentSession;
  generation: number;
}

/** An agent: its name, its server, and its session there (made again after its server changed). */
interface Agent {
  name: string;
  home: number;
  conn?: Conn | undefined;
  connecting?: Promise<void> | undefined;
  /** Its next message's sequence number (one counter across the phases). */
  nextSeq: number;
}

/** A send: what its answer said (`unknown`: the transport failed, no answer). */
interface Sent {
  key: string;
  sender: string;
  recipient: string;
  seq: number;
  phase: Phase;
  outcome: 'pending' | 'acked' | 'refused' | 'maybe' | 'unknown' | 'odd';
  answer?: string;
  /** When its answer came (performance.now()). */
  answeredAt?: number;
}

/** One message as a wait_for_messages answer carried it. */
interface Arrival {
  recipient: string;
  /** Its place among everything its recipient took (the receivers take one answer at a time). */
  order: number;
  /** Which process of the recipient's server answered (Home.generation). */
  generation: number;
  at: number;
}

let postgres: TestPostgres | undefined;
let serverArgs: string[] = [];
const homes: Home[] = [];
const agents: Agent[] = [];
const sent = new Map<string, Sent>();
const arrivals = new Map<string, Arrival[]>();
/** Answers and texts that fit no expected shape (each one a failure). */
const oddities: string[] = [];
/** wait_for_messages answers `Error: the messages could not be read: …` (the database was down). */
let readErrors = 0;
let stopping = false;
let receivers: Promise<void>[] = [];
const taken = new Map<string, number>();
const extraSessions: AgentSession[] = [];
/** What the killed process had taken and not removed: the messages its lease held when it died. */
let held = new Set<string>();
/** The generation of the killed process (its replacement is the next one). */
let killedGeneration = -1;
const report: Record<string, unknown> = {};

const keyOf = (sender: string, seq: number) => `${sender}#${seq}`;
/** The key of a message by its text (`#12 from s0-a01 to s1-a02`). */
const keyOfText = (text: string) => {
  const match = /^#(\d+) from (\S+) to /.exec(text);
  return match ? keyOf(match[2] as string, Number(match[1])) : text;
};
const messageText = (sender: string, seq: number, recipient: string) => `#${seq} from ${sender} to ${recipient}`;
const DELIVERED = /^Message from (\S+): #(\d+) from (\S+) to (\S+)$/;

/** The agent's session on its server's current process, made when it has none or its server changed. */
async function sessionOf(agent: Agent): Promise<Conn> {
  const home = homes[agent.home] as Home;
  for (;;) {
    while (agent.connecting) await agent.connecting;
    const conn = agent.conn;
    if (conn && conn.generation === home.generation && !conn.session.closed) return conn;
    // One connect at a time per agent: its sender and its receiver share the session.
    agent.connecting = (async () => {
      agent.conn = undefined;
      conn?.session.retire();
      while (!stopping) {
        const generation = home.generation;
        try {
          const server = await home.up;
          agent.conn = { session: await connectAgent(server.url, agent.name), generation };
          return;
        } catch {
          await sleep(250);
        }
      }
      throw new Error('stopping');
    })().finally(() => {
      agent.connecting = undefined;
    });
  }
}

/** Records what a wait_for_messages answer carried for `agent`. */
function record(agent: Agent, answer: string, generation: number): void {
  for (const part of answer.split('\n\n---\n\n')) {
    const match = DELIVERED.exec(part);
    if (!match || match[1] !== match[3] || match[4] !== agent.name) {
      oddities.push(`${agent.name} took ${JSON.stringify(part)}`);
      continue;
    }
    const key = keyOf(match[1] as string, Number(match[2]));
    const order = (taken.get(agent.name) ?? 0) + 1;
    taken.set(agent.name, order);
    const list = arrivals.get(key) ?? [];
    list.push({ recipient: agent.name, order, generation, at: performance.now() });
    arrivals.set(key, list);
  }
}

/** The receiver of `agent`: takes what waits for it, one wait at a time, until the test stops. */
async function receive(agent: Agent): Promise<void> {
  while (!stopping) {
    let conn: Conn | undefined;
    try {
      conn = await sessionOf(agent);
      const answer = await conn.session.call('wait_for_messages', { timeoutSeconds: WAIT_SECONDS }, 90_000);
      // "No messages yet": the call's deadline (issue 28) came first; either way nothing was taken.
      if (answer === 'No messages' || answer === 'No messages yet') continue;
      if (answer.startsWith('Error: the messages could not be read: ')) {
        readErrors += 1;
        await sleep(200);
        continue;
      }
      record(agent, answer, conn.generation);
    } catch {
      if (stopping) return;
      // Its server went away (or the call timed out): a new session at the next turn.
      conn?.session.retire();
      await sleep(100);
    }
  }
}

/**
 * Each agent's peers: the next agent on its own server, and agents on each other server. Every
 * sender sends to each of its peers in turn, so each (sender, recipient) pair carries several
 * messages a phase and their order can be checked; each agent also hears from four senders.
 */
const PEER_OFFSETS = [1, AGENTS_PER_SERVER, AGENTS_PER_SERVER + 1, 2 * AGENTS_PER_SERVER] as const;

/** Who sends message `index` of a phase, and to whom: all agents at once, each to its peers in turn. */
function plan(phase: Phase): Map<Agent, Agent[]> {
  const byAgent = new Map<Agent, Agent[]>(agents.map((agent) => [agent, []]));
  for (let index = 0; index < PHASE_MESSAGES[phase]; index += 1) {
    const from = index % agents.length;
    const round = Math.floor(index / agents.length);
    const to = (from + (PEER_OFFSETS[round % PEER_OFFSETS.length] as number)) % agents.length;
    byAgent.get(agents[from] as Agent)?.push(agents[to] as Agent);
  }
  return byAgent;
}

/** Sends the agent's messages of `phase`, one after the other, noting each answer. */
async function sendAll(agent: Agent, recipients: readonly Agent[], phase: Phase): Promise<void> {
  for (const recipient of recipients) {
    const seq = agent.nextSeq++;
    const key = keyOf(agent.name, seq);
    const entry: Sent = { key, sender: agent.name, recipient: recipient.name, seq, phase, outcome: 'pending' };
    sent.set(key, entry);
    let conn: Conn | undefined;
    try {
      conn = await sessionOf(agent);
      const answer = await conn.session.call('send_message', {
        to: recipient.name,
        message: messageText(agent.name, seq, recipient.name),
      });
      entry.answer = answer;
      entry.answeredAt = performance.now();
      if (answer === `Message sent to ${recipient.name}`) entry.outcome = 'acked';
      else if (answer.startsWith('Error: the message could not be sent: ')) entry.outcome = 'refused';
      // The connection was lost while the write was in flight: it may have been saved (and arrive).
      else if (answer.startsWith('Error: the message may have been sent: ')) entry.outcome = 'maybe';
      else entry.outcome = 'odd';
    } catch (error) {
      // No answer (its server was killed): the message may or may not have been stored.
      entry.outcome = 'unknown';
      const cause = (error as { cause?: unknown }).cause;
      entry.answer = `${(error as Error).message}${cause ? ` (${String(cause)})` : ''}`;
      conn?.session.retire();
    }
    if (entry.outcome !== 'acked') await sleep(100);
  }
}

/** Sends every message of `phase` (each agent its own in order, all agents at once). */
async function runPhase(phase: Phase): Promise<void> {
  await Promise.all([...plan(phase)].map(([agent, recipients]) => sendAll(agent, recipients, phase)));
}

const sends = (phase: Phase) => [...sent.values()].filter((entry) => entry.phase === phase);
const acked = (phase: Phase) => sends(phase).filter((entry) => entry.outcome === 'acked');
const missing = (entries: Sent[]) => entries.filter((entry) => !arrivals.has(entry.key)).map((entry) => entry.key);
const duplicated = (entries: Sent[]) => entries.filter((entry) => (arrivals.get(entry.key)?.length ?? 0) > 1);

/**
 * The messages taken more than once other than as the README allows: held by the killed process
 * (its lease), the first copy answered by it and the second by its replacement.
 */
function unexplainedDuplicates(): { key: string; held: boolean; generations: number[] }[] {
  return [...arrivals.entries()]
    .filter(([, copies]) => copies.length > 1)
    .map(([key, copies]) => ({ key, held: held.has(key), generations: copies.map((a) => a.generation) }))
    .filter(
      (copy) =>
        !copy.held ||
        copy.generations.length !== 2 ||
        copy.generations[0] !== killedGeneration ||
        copy.generations[1] !== killedGeneration + 1,
    );
}

/** The messages still in the table that their recipient already took (each would come again). */
async function delivered(): Promise<string[]> {
  const rows = await runSql<{ text: string }>(postgres?.url as string, 'SELECT text FROM raider_messages');
  return rows.map((row) => keyOfText(row.text)).filter((key) => arrivals.has(key));
}

/** First arrivals that came after a later message of the same sender to the same recipient: the late ones. */
function outOfOrder(): { key: string; why: string }[] {
  const latest = new Map<string, number>();
  const firsts = [...arrivals.entries()]
    .map(([key, list]) => ({ entry: sent.get(key) as Sent, first: list[0] as Arrival }))
    .sort((a, b) => a.first.order - b.first.order);
  const late: { key: string; why: string }[] = [];
  for (const { entry, first } of firsts) {
    const pair = `${entry.sender}>${first.recipient}`;
    const before = latest.get(pair) ?? 0;
    if (before > entry.seq) late.push({ key: entry.key, why: `${pair}: #${entry.seq} after #${before}` });
    else latest.set(pair, entry.seq);
  }
  return late;
}

beforeAll(async () => {
  // A PostgreSQL of this file's own: it is stopped and started mid-stream, which the shared one
  // of the global setup (other files' lists) must not see.
  postgres = await startPostgres();
  serverArgs = ['--database-url', postgres.url, '--list', LIST, '--team'];
  // Each noted as it starts, so afterAll stops those that started when another did not.
  await Promise.all(
    Array.from({ length: SERVERS }, async (_, index) => {
      const server = await spawnServer(serverArgs);
      homes[index] = { up: Promise.resolve(server), generation: 0 };
    }),
  );
  for (let s = 0; s < SERVERS; s += 1) {
    for (let a = 0; a < AGENTS_PER_SERVER; a += 1) {
      agents.push({ name: `s${s}-a${String(a).padStart(2, '0')}`, home: s, nextSeq: 1 });
    }
  }
  // Every agent's session first, so the first messages find their recipients waiting; its first
  // call (nothing waits yet) makes sure it is on the list's roster, so no send finds it unknown.
  await Promise.all(
    agents.map(async (agent) => (await sessionOf(agent)).session.call('wait_for_messages', { timeoutSeconds: 0 })),
  );
  receivers = agents.map((agent) => receive(agent));
}, 180_000);

afterAll(async () => {
  console.log(`[messages-scale] measured: ${JSON.stringify(report)}`);
  stopping = true;
  // The receivers end within one wait; past that, closing the sessions ends them.
  await Promise.race([Promise.all(receivers), sleep((WAIT_SECONDS + 10) * 1000)]);
  await Promise.all(
    [...agents.map((agent) => agent.conn?.session), ...extraSessions].map((session) => session?.close()),
  );
  await Promise.all(homes.map((home) => home.up.then((server) => stopServer(server)).catch(() => {})));
  await postgres?.destroy();
}, 120_000);

describe('3 raider-server processes x 20 agents on one PostgreSQL list', () => {
  it('clean: every acknowledged send is taken exactly once by its recipient, in order per sender', async () => {
    const started = performance.now();
    await runPhase('clean');
    // Nothing failed, so every send was acknowledged.
    expect(
      sends('clean')
        .filter((entry) => entry.outcome !== 'acked')
        .map((e) => `${e.key}: ${e.answer}`),
    ).toEqual([]);
    expect(acked('clean')).toHaveLength(PHASE_MESSAGES.clean);
    await until(() => missing(acked('clean')).length === 0, 60_000);
    report.clean = { messages: acked('clean').length, ms: Math.round(performance.now() - started) };
    expect(missing(acked('clean'))).toEqual([]);
    expect(duplicated(acked('clean')).map((entry) => entry.key)).toEqual([]);
    expect(outOfOrder()).toEqual([]);
    expect(oddities).toEqual([]);
  }, 180_000);

  it('kill -9 of a server mid-stream, started again: nothing acknowledged is lost, duplicates only from the killed process', async () => {
    const home = homes[KILLED] as Home;
    const victim = await home.up;
    killedGeneration = home.generation;
    const served = agents.filter((agent) => agent.home === KILLED).map((agent) => agent.name);
    let killedAt = 0;
    const killer = (async () => {
      await until(() => acked('kill').length >= PHASE_MESSAGES.kill / 2, 120_000);
      killedAt = performance.now();
      // Its agents' next session is on the new process (a new generation); until it listens they wait.
      home.generation += 1;
      let started: () => void = () => {};
      home.up = new Promise<void>((resolve) => {
        started = resolve;
      }).then(() => spawnServer(serverArgs));
      try {
        await stopServer(victim, 'SIGKILL');
        // A statement the killed process had sent may still commit: a moment for PostgreSQL to
        // finish its work. Only the killed server's sessions took for its agents, and the new one
        // is not up yet: every lease on their inboxes then is one the killed process held.
        await sleep(1_000);
        const rows = await runSql<{ text: string }>(
          postgres?.url as string,
          'SELECT text FROM raider_messages WHERE lease_until > now() AND recipient = ANY($1)',
          [served],
        );
        held = new Set(rows.map((row) => keyOfText(row.text)));
      } finally {
        started();
      }
      await home.up;
    })();
    await Promise.all([runPhase('kill'), killer]);
    expect(victim.child.signalCode).toBe('SIGKILL');
    // The killed server's agents' sends in flight got no answer; none was refused or odd.
    expect(sends('kill').filter((entry) => entry.outcome === 'odd' || entry.outcome === 'refused')).toEqual([]);
    // What the killed process held is free again once its lease lapsed (up to 30 s after the
    // kill); then the new process takes it, whether or not the killed one's answer got out.
    const retaken = () => [...held].filter((key) => !arrivals.get(key)?.some((a) => a.generation > killedGeneration));
    await until(() => missing(acked('kill')).length === 0 && retaken().length === 0, LEASE_MS + 60_000);
    const duplicates = duplicated(sends('kill'));
    const late = outOfOrder();
    report.kill = {
      acked: acked('kill').length,
      unanswered: sends('kill').filter((entry) => entry.outcome === 'unknown').length,
      unansweredThatArrived: sends('kill').filter((e) => e.outcome === 'unknown' && arrivals.has(e.key)).length,
      heldByTheKilledProcess: held.size,
      duplicates: duplicates.length,
      lateBehindLaterOnes: late.length,
      lastArrivalAfterKillMs: Math.round(
        Math.max(...sends('kill').flatMap((e) => (arrivals.get(e.key) ?? []).map((a) => a.at))) - killedAt,
      ),
    };
    expect(missing(acked('kill'))).toEqual([]);
    // At least once: the new process took again everything the killed one held.
    expect(retaken()).toEqual([]);
    // The one duplicate the README documents: the killed process wrote an answer (its client got
    // it) and died before removing the messages; once the lease lapsed the new process took them again.
    expect(unexplainedDuplicates()).toEqual([]);
    // In order per sender, but for what the killed process held: a later message of the same
    // sender, free, was taken while the lease kept those back (takes skip what another holds).
    expect(late.filter((entry) => !held.has(entry.key))).toEqual([]);
    expect(duplicated(acked('clean')).map((entry) => entry.key)).toEqual([]);
    expect(oddities).toEqual([]);
  }, 300_000);

  it('PostgreSQL restarted mid-stream: sends answer an error or succeed, every acknowledged one is taken, the servers recover', async () => {
    const db = postgres as TestPostgres;
    const readErrorsBefore = readErrors;
    const outage = { from: 0, to: 0 };
    const restart = (async () => {
      await until(() => acked('outage').length >= PHASE_MESSAGES.outage / 2, 120_000);
      outage.from = performance.now();
      await db.stop();
      await sleep(OUTAGE_MS);
      await db.start();
      outage.to = performance.now();
    })();
    await Promise.all([runPhase('outage'), restart]);
    // Every send was answered: acknowledged or refused with the README's words; no session broke.
    expect(
      sends('outage')
        .filter((entry) => !['acked', 'refused', 'maybe'].includes(entry.outcome))
        .map((entry) => `${entry.key}: ${entry.outcome} ${entry.answer}`),
    ).toEqual([]);
    const refused = sends('outage').filter((entry) => entry.outcome === 'refused');
    // The outage outlasted the store's connect timeout, so some sends met it.
    expect(refused.length).toBeGreaterThan(0);
    await until(() => missing(acked('outage')).length === 0, 120_000);
    report.outage = {
      acked: acked('outage').length,
      refused: refused.length,
      refusedThatArrived: refused.filter((entry) => arrivals.has(entry.key)).length,
      readErrors: readErrors - readErrorsBefore,
      outageMs: Math.round(outage.to - outage.from),
      duplicates: duplicated(sends('outage')).length,
      firstRefusal: refused[0]?.answer,
      warnings: (await Promise.all(homes.map((h) => h.up)))
        .flatMap((server) =>
          server
            .log()
            .split('\n')
            .filter((line) => / warn: /.test(line))
            .map((line) => line.slice(0, 200)),
        )
        .slice(0, 20),
    };
    expect(missing(acked('outage'))).toEqual([]);
    // Every message taken was removed once its answer was written, the restart notwithstanding: one
    // left in the table (reserved) would be taken again when its lease lapses, a duplicate.
    let kept: string[] = [];
    await until(
      () => kept.length === 0,
      20_000,
      async () => {
        kept = (await delivered()).filter((key) => !held.has(key));
      },
    );
    report.outage = { ...(report.outage as object), keptAfterDelivery: kept.length };
    expect(kept).toEqual([]);
    // A refusal says nothing was sent: it must not arrive.
    expect(refused.filter((entry) => arrivals.has(entry.key)).map((entry) => entry.key)).toEqual([]);
    expect(duplicated(sends('outage')).map((entry) => entry.key)).toEqual([]);
    // The servers recovered by themselves: the same processes acknowledged sends after the
    // restart, and those were taken too (above).
    for (const home of homes) expect((await home.up).child.exitCode).toBe(null);
    expect(acked('outage').filter((entry) => (entry.answeredAt ?? 0) > outage.to).length).toBeGreaterThan(0);
    expect(oddities).toEqual([]);
  }, 300_000);

  it('a task completed through server A wakes the blocked task owner waiting on server B', async () => {
    const [lead, builder] = await Promise.all([
      homes[0]?.up.then((server) => connectAgent(server.url, 'lead')),
      homes[2]?.up.then((server) => connectAgent(server.url, 'builder')),
    ]);
    const a = lead as AgentSession;
    const b = builder as AgentSession;
    extraSessions.push(a, b);
    expect(await a.call('task_create', { subject: 'Write the parser', description: '' })).toMatch(/^Task #1 created/);
    expect(await a.call('task_create', { subject: 'Ship it', description: '' })).toMatch(/^Task #2 created/);
    expect(await a.call('task_update', { taskId: '1', addBlocks: ['2'] })).toMatch(/^Updated task #1/);
    expect(await b.call('task_update', { taskId: '2', owner: 'builder' })).toMatch(/^Updated task #2/);
    const waiting = b.call('wait_for_messages', { timeoutSeconds: 40 }).then((answer) => ({
      answer,
      at: performance.now(),
    }));
    await sleep(500);
    const completing = performance.now();
    expect(await a.call('task_update', { taskId: '1', status: 'completed' })).toBe('Updated task #1 status');
    const woken = await waiting;
    report.wakeUpMs = Math.round(woken.at - completing);
    console.log(`[messages-scale] wake-up across servers: ${report.wakeUpMs} ms`);
    expect(woken.answer).toBe(
      [
        '<task-notification>',
        '<task-id>1</task-id>',
        '<task-type>blocker_completed</task-type>',
        '<status>completed</status>',
        '<summary>Task #1 "Write the parser" completed; #2 "Ship it" is no longer blocked by it</summary>',
        '</task-notification>',
      ].join('\n'),
    );
    // Once: nothing more waits for the owner.
    expect(await b.call('wait_for_messages', { timeoutSeconds: 2 })).toBe('No messages');
  }, 120_000);

  it("after every phase: the clean phase's messages still came once, and every acknowledged send was taken", () => {
    const all = [...sent.values()].filter((entry) => entry.outcome === 'acked');
    report.messages = { sent: sent.size, acked: all.length, taken: [...taken.values()].reduce((a, b) => a + b, 0) };
    expect(sent.size).toBe(PHASE_MESSAGES.clean + PHASE_MESSAGES.kill + PHASE_MESSAGES.outage);
    expect(missing(all)).toEqual([]);
    // Taken twice only as the README allows (see the kill phase), by the end of the run too.
    expect(unexplainedDuplicates()).toEqual([]);
    // Out of order only what the killed process held (see the kill phase).
    expect(outOfOrder().filter((entry) => !held.has(entry.key))).toEqual([]);
    expect(oddities).toEqual([]);
  });
});
