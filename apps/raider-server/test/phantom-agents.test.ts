// No phantom agents, and notices a model reads right (issue 36), with real server processes over
// HTTP, in both eras, in a folder (--data-dir) and in PostgreSQL (--database-url): a send to a name
// no agent connected as is refused with a did-you-mean and the list's names, nothing sent, and
// `to: "*"` afterwards still reaches only the agents that connected; a task's owner that never
// connected is no agent; hostile agent names (the kit's shared table) show as one line in the
// refusal; a server with --send-to-unseen writes to such a name, which still does not become an
// agent; the wake-ups carry their <task-type> and a <status> only for an end. One server process
// per store, and one with --send-to-unseen on the folder: three in all.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_STRINGS } from '@raider/kit/hostile-strings';
import { received } from '@raider/kit/received';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { agentNameProblem } from '../src/agent-name.js';
import { agentClient, type Era } from './agent-clients.js';
import { type ServerProcess, spawnServer, stopServer } from './team-processes.js';
import { wakeUpText } from './wake-up-text.js';

const ERAS: readonly Era[] = ['legacy', 'modern'];

/** The agent names of the shared hostile table that are valid names (NUL is not). */
const HOSTILE_NAMES = HOSTILE_STRINGS.filter((hostile) => agentNameProblem(hostile.text) === undefined);

const started: ServerProcess[] = [];
let folder = '';
const servers: Record<'folder' | 'postgres' | 'unseen', ServerProcess | undefined> = {
  folder: undefined,
  postgres: undefined,
  unseen: undefined,
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'raider-phantom-'));
  const team = ['--team'];
  const [inFolder, inPostgres, unseen] = await Promise.all([
    spawnServer(['--data-dir', folder, ...team]),
    spawnServer(['--database-url', inject('databaseUrl'), ...team]),
    spawnServer(['--data-dir', folder, '--send-to-unseen', ...team]),
  ]);
  started.push(inFolder, inPostgres, unseen);
  Object.assign(servers, { folder: inFolder, postgres: inPostgres, unseen });
});

afterAll(async () => {
  await Promise.all(started.map((server) => stopServer(server)));
  await rm(folder, { recursive: true, force: true });
});

/** The URL of a started server. */
const urlOf = (which: keyof typeof servers) => (servers[which] as ServerProcess).url;

/** `name`'s client on `list`, on the list's roster before it answers (its first call makes sure of it). */
async function present(url: string, era: Era, list: string, name: string) {
  const agent = await agentClient(url, era, list, encodeURIComponent(name));
  expect(await agent.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
  return agent;
}

/** What both SDKs' clients answer tools/list with, as far as these tests read it. */
type Lister = { listTools(): Promise<{ tools: { name: string; description?: string }[] }> };

const NOTHING_SENT = 'Nothing was sent; a server started with --send-to-unseen writes to names not seen yet';

describe.each(['folder', 'postgres'] as const)('agents of a list in %s', (store) => {
  describe.each(ERAS)('%s era', (era) => {
    it('a misspelled name is refused with a did-you-mean, nothing sent; "*" still reaches only the agents', async () => {
      const url = urlOf(store);
      const list = `phantom-${store}-${era}-${randomUUID()}`;
      const alice = await present(url, era, list, 'alice');
      const bob = await present(url, era, list, 'bob');
      const engineer = await present(url, era, list, 'engineer');
      const tools = await (alice.client as unknown as Lister).listTools();
      expect(tools.tools.find((tool) => tool.name === 'send_message')?.description).toBe(
        'Send a plain-text message to another agent of this task list by its name (the owner it uses on tasks), or to every other agent with to: "*". The agents of this list are those that have connected to it under their names; a name no agent has connected as is refused, with the names there are. It waits in that agent\'s inbox until the agent takes it with wait_for_messages. You are "alice".',
      );
      // carol owns a task but never connected: no agent.
      await alice.call('task_create', { subject: 'Review', description: '' });
      await alice.call('task_update', { taskId: '1', owner: 'carol' });
      expect(await alice.result('send_message', { to: 'enginer', message: 'The keys are in the vault.' })).toEqual({
        isError: true,
        text: `Error: to: expected an agent of this list, received "enginer" (no agent of that name has connected to it); did you mean "engineer"? Its agents: "alice", "bob", "engineer". ${NOTHING_SENT}`,
      });
      expect(await alice.result('send_message', { to: 'carol', message: 'Yours.' })).toEqual({
        isError: true,
        text: `Error: to: expected an agent of this list, received "carol" (no agent of that name has connected to it). Its agents: "alice", "bob", "engineer". ${NOTHING_SENT}`,
      });
      // State unchanged: "*" reaches the two other agents, not "enginer" nor "carol".
      expect(await alice.call('send_message', { to: '*', message: 'Standup in 5.' })).toBe('Message sent to 2 agents');
      expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: Standup in 5.');
      expect(await engineer.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: Standup in 5.');
      // Nothing waits for the misspelled name (connecting now makes it an agent, with an empty inbox).
      const typo = await present(url, era, list, 'enginer');
      expect(await typo.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
      // A name that connected is an agent from then on, through every server on the list.
      expect(await bob.call('send_message', { to: 'enginer', message: 'Welcome.' })).toBe('Message sent to enginer');
    });

    it('hostile agent names show as one line, quoted, in the refusal', async () => {
      const url = urlOf(store);
      const list = `hostile-${store}-${era}-${randomUUID()}`;
      const alice = await present(url, era, list, 'alice');
      for (const { text } of HOSTILE_NAMES) await present(url, era, list, text);
      for (const { text } of HOSTILE_NAMES) {
        const answer = await alice.result('send_message', { to: `${text}!`, message: 'hi' });
        expect(answer.isError).toBe(true);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: no line break or control character may reach the reader raw
        expect(answer.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
        expect(answer.text).toContain(`did you mean ${received(text)}? Its agents: `);
        expect(answer.text).toContain(` and ${HOSTILE_NAMES.length + 1 - 10} more. ${NOTHING_SENT}`);
      }
      expect(await alice.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('No messages');
    });

    it('the wake-ups name their kind, and only an end has a <status>', async () => {
      const url = urlOf(store);
      const list = `notices-${store}-${era}-${randomUUID()}`;
      const alice = await present(url, era, list, 'alice');
      const bob = await present(url, era, list, 'bob');
      const carol = await present(url, era, list, 'carol');
      await alice.call('task_create', { subject: 'Write the parser', description: '' });
      await alice.call('task_create', { subject: 'Ship it', description: '' });
      await alice.call('task_update', { taskId: '1', addBlocks: ['2'] });
      await alice.call('task_update', { taskId: '2', owner: 'bob' });
      await alice.call('task_update', { taskId: '2', description: 'Tag v1' });
      await alice.call('task_update', { taskId: '1', status: 'completed' });
      await alice.call('task_update', { taskId: '2', owner: 'carol' });
      expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
        [
          wakeUpText('2', 'task_assigned', undefined, 'alice made you the owner of task #2 "Ship it"'),
          wakeUpText('2', 'task_changed', undefined, 'alice changed your task #2 "Ship it": description'),
          wakeUpText(
            '1',
            'blocker_completed',
            'completed',
            'Task #1 "Write the parser" completed; #2 "Ship it" is no longer blocked by it',
          ),
          wakeUpText(
            '2',
            'task_unassigned',
            undefined,
            'alice changed your task #2 "Ship it": owner (now carol); you are no longer its owner',
          ),
        ].join('\n'),
      );
      await alice.call('task_update', { taskId: '2', status: 'deleted' });
      expect(await carol.call('wait_for_messages', { timeoutSeconds: 0 })).toBe(
        [
          wakeUpText('2', 'task_assigned', undefined, 'alice made you the owner of task #2 "Ship it"'),
          wakeUpText('2', 'task_deleted', 'killed', 'alice deleted your task #2 "Ship it"'),
        ].join('\n'),
      );
    });
  });
});

describe('--send-to-unseen', () => {
  it.each(ERAS)('%s era: writes to a name not seen yet, which still is no agent', async (era) => {
    const list = `unseen-${era}-${randomUUID()}`;
    // bob is served by the server without the flag: the roster is the list's, in the folder.
    const bob = await present(urlOf('folder'), era, list, 'bob');
    const alice = await present(urlOf('unseen'), era, list, 'alice');
    const listed = await (alice.client as unknown as Lister).listTools();
    expect(listed.tools.find((tool) => tool.name === 'send_message')?.description).toBe(
      'Send a plain-text message to another agent of this task list by its name (the owner it uses on tasks), or to every other agent with to: "*". The agents of this list are those that have connected to it under their names; a name no agent has connected as yet is written to all the same, and waits for an agent of that name. It waits in that agent\'s inbox until the agent takes it with wait_for_messages. You are "alice".',
    );
    expect(await alice.call('send_message', { to: 'dave', message: 'For when you come.' })).toBe(
      'Message sent to dave',
    );
    // Not on the roster: "*" reaches bob alone, here and through the other server.
    expect(await alice.call('send_message', { to: '*', message: 'All hands.' })).toBe('Message sent to 1 agent');
    expect(await bob.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: All hands.');
    expect(await bob.result('send_message', { to: 'dave', message: 'Hi' })).toEqual({
      isError: true,
      text: `Error: to: expected an agent of this list, received "dave" (no agent of that name has connected to it). Its agents: "alice", "bob". ${NOTHING_SENT}`,
    });
    // dave connects and finds what was written for him; from then on he is an agent.
    const dave = await agentClient(urlOf('folder'), era, list, 'dave');
    expect(await dave.call('wait_for_messages', { timeoutSeconds: 0 })).toBe('Message from alice: For when you come.');
    expect(await bob.call('send_message', { to: 'dave', message: 'Hi' })).toBe('Message sent to dave');
  });
});
