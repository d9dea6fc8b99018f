// The built server over stdio (dist/cli.js as a real process) answering big todo lists: each
// answer a line of exactly its own JSON (the transport's shared bytes spliced in the right place).
// messageLine itself is tested in-process in src/stdio-transport.test.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CLI } from './helpers.js';

describe('raider-server over stdio: big todo answers', () => {
  it('answers gets of a 2 000-task list with the list as it is, each line its own JSON exactly', async () => {
    // With structured output on, each answer carries the whole list: the transport's shared bytes.
    const child = spawn(process.execPath, [CLI, '--family', 'todo', '--max-tasks', '3000', '--structured-output'], {
      stdio: ['pipe', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH, RAIDER_LOG_LEVEL: 'error' },
    });
    let buffered = '';
    const lines: string[] = [];
    const waiting: (() => void)[] = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
        lines.push(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
        waiting.shift()?.();
      }
    });
    let id = 0;
    const send = async (method: string, params: unknown) => {
      const answered = new Promise<void>((resolve) => waiting.push(resolve));
      id += 1;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      await answered;
      const line = lines.shift() as string;
      // Each line is exactly the JSON of what it says: nothing spliced in the wrong place.
      expect(JSON.stringify(JSON.parse(line))).toBe(line);
      return JSON.parse(line);
    };
    try {
      await send('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      const todo = (args: Record<string, unknown>) => send('tools/call', { name: 'todo', arguments: args });
      for (let i = 1; i <= 2_000; i += 1) await todo({ action: 'create', subject: `Task ${i} "é"` });
      const first = await todo({ action: 'get', id: 1000 });
      expect(first.result.content[0].text).toBe('#1000 [pending] Task 1000 "é"');
      expect(first.result.structuredContent.tasks).toHaveLength(2_000);
      expect((await todo({ action: 'get', id: 1000 })).result.structuredContent).toEqual(
        first.result.structuredContent,
      );
      await todo({ action: 'update', id: 1000, status: 'in_progress' });
      const after = await todo({ action: 'get', id: 1000 });
      expect(after.result.structuredContent.tasks[999]).toEqual({
        id: 1000,
        subject: 'Task 1000 "é"',
        status: 'in_progress',
      });
      expect(after.id).toBe(id);
    } finally {
      child.stdin.end();
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
