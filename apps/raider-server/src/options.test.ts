// The command line read in-process: limits as flags with environment twins, stray HTTP flags.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createConversation } from './conversation/conversation.js';
import { OptionsError } from './errors.js';
import { helpText, readOptions } from './options.js';

const textOf = (result: unknown): string | undefined =>
  (result as { content?: { type: string; text: string }[] }).content?.[0]?.text;

describe('raider-server options', () => {
  it('every list limit is a flag with an environment twin; a flag beats its variable', () => {
    const options = readOptions(['--max-tasks', '5', '--max-subject-length', '40', '--max-metadata-size', '300'], {
      RAIDER_MAX_TASKS: '9',
      RAIDER_MAX_OWNER_LENGTH: '12',
      RAIDER_MAX_TODO_ITEMS: '3',
    });
    expect(options.limits).toEqual({
      maxTasks: 5,
      maxSubjectLength: 40,
      maxMetadataSize: 300,
      maxOwnerLength: 12,
      maxTodoItems: 3,
    });
    expect(readOptions([], {}).limits).toEqual({});
    const help = helpText();
    for (const flag of [
      '--max-tasks N',
      '--max-subject-length N',
      '--max-description-length N',
      '--max-active-form-length N',
      '--max-owner-length N',
      '--max-metadata-size N',
      '--max-metadata-depth N',
      '--max-dependencies N',
      '--max-todo-items N',
    ]) {
      expect(help).toContain(flag);
    }
    expect(help).toContain('[RAIDER_MAX_TASKS]');
  });

  it('a limit that is not a whole number of at least 1 is refused, naming the flag or variable', () => {
    expect(() => readOptions(['--max-tasks', '0'], {})).toThrow(
      '--max-tasks: expected a whole number from 1 to 1000000000, received "0"',
    );
    expect(() => readOptions([], { RAIDER_MAX_TASKS: 'lots' })).toThrow(
      'RAIDER_MAX_TASKS: expected a whole number from 1 to 1000000000, received "lots"',
    );
  });

  it('a token off loopback has at least 16 characters, and --token "" is an error', () => {
    expect(() => readOptions(['--http', '--host', '0.0.0.0', '--token', 'short'], {})).toThrow(
      '--token: expected at least 16 characters off loopback (the token is all that guards it), received 5',
    );
    expect(() => readOptions(['--http', '--token', ''], {})).toThrow(
      '--token: expected a secret of at least 16 characters, received an empty one',
    );
    expect(readOptions(['--http', '--host', '0.0.0.0', '--token', 'a'.repeat(16)], {}).token).toBe('a'.repeat(16));
    expect(() => readOptions(['--list', '任'.repeat(28)], {})).toThrow(
      /--list: list id: expected a name whose folder name fits in 255 bytes/,
    );
  });

  it('an HTTP flag without --http is refused, not silently ignored', () => {
    for (const args of [
      ['--port', '4000'],
      ['--host', '127.0.0.2'],
      ['--token', 'abcdefabcdefabcdef'],
      ['--max-sessions', '3'],
    ]) {
      expect(() => readOptions(args, {})).toThrow(OptionsError);
      expect(() => readOptions(args, {})).toThrow(`${args[0]}: expected --http as well`);
    }
    expect(readOptions(['--http', '--port', '4000'], {}).port).toBe(4000);
  });

  it('the database flags: pool size and timeouts in seconds, with environment twins, checked, and refused without --database-url', () => {
    const url = ['--database-url', 'postgres://u:p@h:5432/d'];
    expect(readOptions(url, {})).toMatchObject({
      databasePoolSize: 10,
      databaseLockTimeoutMs: 15_000,
      databaseIdleTimeoutMs: 10_000,
    });
    expect(
      readOptions([...url, '--database-pool-size', '4', '--database-lock-timeout', '30'], {
        RAIDER_DATABASE_POOL_SIZE: '9',
        RAIDER_DATABASE_IDLE_TIMEOUT: '0',
      }),
    ).toMatchObject({ databasePoolSize: 4, databaseLockTimeoutMs: 30_000, databaseIdleTimeoutMs: 0 });
    expect(() => readOptions([...url, '--database-pool-size', '0'], {})).toThrow(
      '--database-pool-size: expected a whole number from 1 to 10000, received "0"',
    );
    expect(() => readOptions(url, { RAIDER_DATABASE_LOCK_TIMEOUT: '1.5' })).toThrow(
      'RAIDER_DATABASE_LOCK_TIMEOUT: expected a whole number from 0 to 86400, received "1.5"',
    );
    expect(() => readOptions([...url, '--database-idle-timeout', 'soon'], {})).toThrow(
      '--database-idle-timeout: expected a whole number from 0 to 86400, received "soon"',
    );
    expect(() => readOptions(['--database-idle-timeout', '5'], {})).toThrow(
      '--database-idle-timeout: expected --database-url as well (it sets the connections to the database, and without one lists do not live in PostgreSQL), received none',
    );
    const help = helpText();
    for (const flag of [
      '--database-pool-size N',
      '--database-lock-timeout SECONDS',
      '--database-idle-timeout SECONDS',
    ]) {
      expect(help).toContain(flag);
    }
    for (const variable of [
      'RAIDER_DATABASE_POOL_SIZE',
      'RAIDER_DATABASE_LOCK_TIMEOUT',
      'RAIDER_DATABASE_IDLE_TIMEOUT',
    ]) {
      expect(help).toContain(`[${variable}]`);
    }
  });

  it('--state-secret (RAIDER_STATE_SECRET) is taken in either transport, at least 32 characters, never echoed', () => {
    const secret = 's'.repeat(32);
    expect(readOptions(['--state-secret', secret], {}).stateSecret).toBe(secret);
    expect(readOptions(['--http'], { RAIDER_STATE_SECRET: secret }).stateSecret).toBe(secret);
    expect(readOptions([], {}).stateSecret).toBeUndefined();
    expect(() => readOptions(['--state-secret', 'hunter2'], {})).toThrow(
      "--state-secret: expected a secret of at least 32 characters (it is the HMAC key of every question's state), received 7",
    );
    expect(() => readOptions([], { RAIDER_STATE_SECRET: 'short' })).toThrow(/^RAIDER_STATE_SECRET: .* received 5$/);
    expect(helpText()).toContain('--state-secret SECRET');
    expect(helpText()).toContain('[RAIDER_STATE_SECRET]');
  });

  it('the limits reach the tools of a conversation', async () => {
    const options = readOptions(['--max-tasks', '2'], {});
    const conversation = createConversation({
      family: 'tasks',
      names: 'raider',
      askTimeoutMs: 1000,
      limits: options.limits,
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await conversation.newServer('legacy').connect(serverSide);
    const client = new Client({ name: 'limits', version: '1.0.0' });
    await client.connect(clientSide);
    for (const subject of ['A', 'B']) {
      await client.callTool({ name: 'task_create', arguments: { subject, description: '' } });
    }
    const third = await client.callTool({ name: 'task_create', arguments: { subject: 'C', description: '' } });
    expect(third.isError).toBe(true);
    expect(textOf(third)).toContain('(maxTasks 2)');
    await client.close();
    await conversation.close('done');
  });
});
