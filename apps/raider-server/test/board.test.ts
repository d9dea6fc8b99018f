// The live board in real Chromium (from the npm registry, see chromium-setup.ts; driven by playwright-core).
import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { oneLine } from '@raider/kit/shown-text';
import { notificationText } from '@raider/tasks-registry';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SECRET_PAGE_TITLE, secretPageHtml, secretPageText } from '../src/board/secret-page.js';
import { type HttpServer, readOptions, type ServerOptions, startHttp } from '../src/index.js';
import { listFor } from '../src/lists/list-for.js';
import type { ListHandle } from '../src/lists/list-handle.js';
import { launchChromium } from './chromium.js';
import { stdioClient, textOf } from './helpers.js';

const ARTIFACTS = fileURLToPath(new URL('../test-results/', import.meta.url));

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function boardServer(overrides: Partial<ServerOptions> = {}): Promise<HttpServer> {
  return startHttp({ ...readOptions(['--http', '--port', '0', '--board'], {}), ...overrides });
}

async function mcp(url: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'board-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

async function openBoard(url: string): Promise<Page> {
  // A time zone and locale of its own: the times the board shows are then known to the test.
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 }, timezoneId: 'UTC', locale: 'en-GB' });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const target = new URL(url);
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the live board', () => {
  it('shows tasks, moves them live, and answers a question by a click and by keyboard', async () => {
    const server = await boardServer();
    const client = await mcp(server.url);
    const page = await openBoard(server.boardUrl as string);
    try {
      await client.callTool({ name: 'task_create', arguments: { subject: 'Design the API', description: '' } });
      await client.callTool({ name: 'task_create', arguments: { subject: 'Write the docs', description: '' } });
      await client.callTool({ name: 'task_update', arguments: { taskId: '2', addBlockedBy: ['1'], owner: 'alice' } });
      await page.waitForSelector('.task[data-id="2"]');
      expect(await page.locator('.task .title').allTextContents()).toEqual(['Design the API', 'Write the docs']);
      expect(await page.locator('.task[data-id="2"] .blocked').textContent()).toBe('blocked by #1');
      expect(await page.locator('.task[data-id="2"] .badge').textContent()).toBe('○ Pending');

      // An update moves the task within a second, without polling.
      await client.callTool({
        name: 'task_update',
        arguments: { taskId: '1', status: 'in_progress', activeForm: 'Designing' },
      });
      // The page never polls (it only listens to its event stream), so the change arriving at all
      // shows it was pushed; the wait is headroom for a busy machine, not a speed requirement.
      await page.waitForSelector('.task[data-id="1"][data-status="in_progress"]', { timeout: 10_000 });
      expect(await page.locator('.task[data-id="1"] .badge').textContent()).toBe('◐ In progress');
      expect(await page.locator('.task[data-id="1"] .doing').textContent()).toBe('(Designing)');
      // An activeForm that only says the subject again is not repeated.
      await client.callTool({
        name: 'task_update',
        arguments: { taskId: '2', status: 'in_progress', activeForm: 'Write the docs' },
      });
      await page.waitForSelector('.task[data-id="2"][data-status="in_progress"]', { timeout: 10_000 });
      expect(await page.locator('.task[data-id="2"] .doing').count()).toBe(0);

      // A client without elicitation asks: the question appears on the board and a click answers it.
      const asked = client.callTool({
        name: 'ask_user',
        arguments: { question: 'Which database?', options: ['Postgres', 'SQLite'] },
      });
      await page.waitForSelector('form.question button.option');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}board.png`, fullPage: true });
      await page.getByRole('button', { name: 'SQLite' }).click();
      const answered = await asked;
      expect(answered.isError).toBeFalsy();
      expect(textOf(answered)).toBe('SQLite');
      await page.waitForSelector('form.question', { state: 'detached' });

      // Keyboard only: Tab from the top of the page to the free-text field, type, Enter.
      const typed = client.callTool({ name: 'ask_user', arguments: { question: 'Name the release?' } });
      await page.waitForSelector('form.question input[name="answer"]');
      // Start from nothing focused (page code as strings: this file is type-checked without the DOM).
      await page.evaluate('document.activeElement?.blur()');
      const focusedName = () => page.evaluate<string>('document.activeElement?.getAttribute("name") ?? ""');
      for (let presses = 0; presses < 30 && (await focusedName()) !== 'answer'; presses += 1) {
        await page.keyboard.press('Tab');
      }
      expect(await focusedName()).toBe('answer');
      await page.keyboard.type('Raider 1.0');
      await page.keyboard.press('Enter');
      expect(textOf(await typed)).toBe('Raider 1.0');
    } finally {
      await page.close();
      await client.close();
      await server.close();
    }
  }, 60_000);

  it("shows an agent's inbox and sends it a person's message, which its wait_for_messages then takes", async () => {
    const server = await boardServer({ list: 'board-inboxes', team: true });
    const page = await openBoard(server.boardUrl as string);
    const alice = await mcp(server.url, { 'X-Raider-Agent': 'alice' });
    try {
      // alice is connected: the board lists her, with an empty inbox.
      const inbox = '.agent[data-agent="alice"]';
      await page.waitForSelector(`${inbox} .waiting:text("no messages waiting")`, { timeout: 10_000 });

      // A refused send shows send_message's own error, and nothing is sent.
      await page.getByLabel('To (an agent, or * for all)').fill('alice');
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.waitForSelector('form.send[data-outcome="refused"]');
      expect(await page.locator('form.send .send-status').textContent()).toBe(
        'Not sent: message: expected a non-empty text, received ""',
      );

      await page.getByRole('textbox', { name: 'Message:', exact: true }).fill('Please take the parser');
      // The board redraws (a task appears) while a person types: the text and the focus stay.
      await alice.callTool({ name: 'task_create', arguments: { subject: 'Write the parser', description: '' } });
      await page.waitForSelector('.task .title:text("Write the parser")');
      expect(await page.evaluate<string>('document.activeElement?.getAttribute("name") ?? ""')).toBe('message');
      expect(await page.getByRole('textbox', { name: 'Message:', exact: true }).inputValue()).toBe(
        'Please take the parser',
      );
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.waitForSelector('form.send[data-outcome="sent"]');
      expect(await page.locator('form.send .send-status').textContent()).toBe('Message sent to alice');
      // The message waits in alice's inbox (peeked by the board, not taken).
      await page.waitForSelector(`${inbox} .message`, { timeout: 10_000 });
      expect(await page.locator(`${inbox} .waiting`).textContent()).toBe('1 message waiting');
      expect(await page.locator(`${inbox} .message .from`).textContent()).toBe('from a person at raider/board');
      expect(await page.locator(`${inbox} .message .text`).textContent()).toBe('Please take the parser');
      // When it was sent: HH:MM in the page's zone (UTC here), the full time in datetime and title.
      const sent = page.locator(`${inbox} .message time`);
      const datetime = (await sent.getAttribute('datetime')) as string;
      expect(Math.abs(Date.parse(datetime) - Date.now())).toBeLessThan(10 * 60_000);
      expect(await sent.textContent()).toBe(datetime.slice(11, 16));
      expect(await sent.getAttribute('title')).toContain(String(new Date(datetime).getUTCFullYear()));
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}board-inboxes.png`, fullPage: true });

      // alice takes it, with the board's sender name; the board's inbox empties.
      const taken = await alice.callTool({ name: 'wait_for_messages', arguments: { timeoutSeconds: 10 } });
      expect(textOf(taken)).toBe('Message from a person at raider/board: Please take the parser');
      await page.waitForSelector(`${inbox} .waiting:text("no messages waiting")`, { timeout: 10_000 });
      expect(await page.locator(`${inbox} .message`).count()).toBe(0);

      // A notification raider sends shows its summary and kind, never its markup; a line break in
      // the summary cannot begin a line of its own.
      const summary = 'bob made you the owner of task #1 "Write the parser\n#2 [completed] Ship it"';
      const list = listFor(server.runtime, {}, 'board-inboxes') as ListHandle;
      try {
        await list.messages().send({
          to: 'alice',
          text: notificationText({ taskId: '1', taskType: 'task_assigned', summary }),
          notification: true,
          about: '1',
          label: summary,
        });
      } finally {
        list.release();
      }
      const notice = `${inbox} .message[data-notification="true"]`;
      await page.waitForSelector(notice, { timeout: 10_000 });
      expect(await page.locator(`${notice} .from`).textContent()).toBe('raider notification (task_assigned)');
      expect(await page.locator(`${notice} .text`).textContent()).toBe(oneLine(summary));
      expect(await page.locator(`${notice} time`).count()).toBe(1);
      expect(await page.locator(inbox).textContent()).not.toContain('task-notification');
    } finally {
      await page.close();
      await alice.close();
      await server.close();
    }
  }, 60_000);

  it('2026 era: a client that cannot answer a form is asked on the board; one that can is asked itself', async () => {
    const { Client: V2Client, StreamableHTTPClientTransport: V2Transport } = await import(
      '@modelcontextprotocol/client'
    );
    const server = await boardServer({ list: 'board-modern' });
    const page = await openBoard(server.boardUrl as string);
    const modern = async (elicit: boolean) => {
      const client = new V2Client(
        { name: 'board-modern', version: '1.0.0' },
        {
          versionNegotiation: { mode: { pin: '2026-07-28' } },
          ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
        },
      );
      if (elicit)
        client.setRequestHandler('elicitation/create', async () => ({
          action: 'accept',
          content: { answer: 'In the client' },
        }));
      await client.connect(new V2Transport(new URL(server.url)));
      return client;
    };
    const plain = await modern(false);
    const eliciting = await modern(true);
    try {
      const asked = plain.callTool({
        name: 'ask_user',
        arguments: { question: 'Which port?', options: ['80', '8080'] },
      });
      await page.waitForSelector('form.question button.option');
      await page.getByRole('button', { name: '8080' }).click();
      expect(textOf(await asked)).toBe('8080');
      await page.waitForSelector('form.question', { state: 'detached', timeout: 10_000 });
      // The client that can answer holds its question (input_required): the board is not asked.
      expect(textOf(await eliciting.callTool({ name: 'ask_user', arguments: { question: 'Where?' } }))).toBe(
        'In the client',
      );
      expect(await page.locator('form.question').count()).toBe(0);
    } finally {
      await page.close();
      await plain.close();
      await eliciting.close();
      await server.close();
    }
  }, 60_000);

  it('with elicitation too, the question goes to both; answered in one place, it leaves the other', async () => {
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const server = await boardServer();
    const client = new Client({ name: 'both', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    let release: (answer: string) => void = () => {};
    client.setRequestHandler(
      ElicitRequestSchema,
      () =>
        new Promise((resolve) => {
          release = (answer) => resolve({ action: 'accept', content: { answer } });
        }),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const page = await openBoard(server.boardUrl as string);
    try {
      const asked = client.callTool({ name: 'ask_user', arguments: { question: 'Which port?' } });
      await page.waitForSelector('form.question');
      release('8080');
      expect(textOf(await asked)).toBe('8080');
      await page.waitForSelector('form.question', { state: 'detached', timeout: 10_000 });
    } finally {
      await page.close();
      await client.close();
      await server.close();
    }
  }, 30_000);

  it('a change another process makes to a shared durable list reaches the board', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openList } = await import('@raider/file-store');
    const { TaskTools } = await import('@raider/todo-tools');
    const dataDir = await mkdtemp(join(tmpdir(), 'raider-board-lists-'));
    const server = await boardServer({ dataDir, list: 'team' });
    const client = await mcp(server.url);
    const page = await openBoard(server.boardUrl as string);
    const elsewhere = openList(dataDir, 'team');
    try {
      await client.callTool({ name: 'task_create', arguments: { subject: 'Here', description: '' } });
      await page.waitForSelector('.task .title:text("Here")');
      // Another process: the list folder written through its own store.
      await new TaskTools({ store: elsewhere.tasks }).createTask({ subject: 'From elsewhere', description: '' });
      await page.waitForSelector('.task .title:text("From elsewhere")', { timeout: 10_000 });
      expect(await page.locator('h3').first().textContent()).toContain('List team');
    } finally {
      elsewhere.close();
      await page.close();
      await client.close();
      await server.close();
    }
  }, 30_000);

  it('a change made through another server on a PostgreSQL list shows on this board within a second', async () => {
    const databaseUrl = inject('databaseUrl');
    const list = `board-${Date.now()}`;
    const server = await boardServer({ databaseUrl, list });
    const client = await mcp(server.url);
    const page = await openBoard(server.boardUrl as string);
    const { client: other } = await stdioClient(['--database-url', databaseUrl, '--list', list]);
    try {
      await client.callTool({ name: 'task_create', arguments: { subject: 'Here', description: '' } });
      await page.waitForSelector('.task .title:text("Here")');
      const before = Date.now();
      await other.callTool({ name: 'task_create', arguments: { subject: 'From server B', description: '' } });
      await page.waitForSelector('.task .title:text("From server B")', { timeout: 10_000 });
      expect(Date.now() - before).toBeLessThan(1000);
    } finally {
      await other.close();
      await page.close();
      await client.close();
      await server.close();
    }
  }, 30_000);

  it('declining on the board is an error result for the model', async () => {
    const server = await boardServer();
    const client = await mcp(server.url);
    const page = await openBoard(server.boardUrl as string);
    try {
      const asked = client.callTool({ name: 'ask_user', arguments: { question: 'Delete the branch?' } });
      await page.waitForSelector('form.question');
      await page.getByRole('button', { name: 'Decline' }).click();
      const result = await asked;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^The user declined to answer the question/);
    } finally {
      await page.close();
      await client.close();
      await server.close();
    }
  }, 30_000);

  it('with no board open, a client without elicitation gets the plain refusal', async () => {
    const server = await boardServer();
    const client = await mcp(server.url);
    try {
      const result = await client.callTool({ name: 'ask_user', arguments: { question: 'Anyone?' } });
      expect(textOf(result)).toMatch(/^Nobody can answer questions in this session/);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('reconnects after the server restarts', async () => {
    // A token of one's own survives restarts (a generated secret is new with every run).
    const token = 'a-board-token-of-our-own';
    const first = await boardServer({ token });
    const port = Number(new URL(first.url).port);
    const page = await openBoard(first.boardUrl as string);
    try {
      await first.close();
      await page.waitForSelector('#status:text("Reconnecting…")');
      const second = await boardServer({ port, token });
      const client = await mcp(second.url, { authorization: `Bearer ${token}` });
      await client.callTool({ name: 'task_create', arguments: { subject: 'After the restart', description: '' } });
      await page.waitForSelector('.task .title:text("After the restart")', { timeout: 10_000 });
      expect(await page.locator('#status').textContent()).toBe('Live');
      await client.close();
      await second.close();
    } finally {
      await page.close();
    }
  }, 30_000);

  it('without a token the board still asks for the secret made at start; /mcp on loopback stays open', async () => {
    const server = await boardServer();
    try {
      const base = server.url.replace('/mcp', '/');
      const secret = new URL(server.boardUrl as string).searchParams.get('token') as string;
      expect(secret.length).toBeGreaterThanOrEqual(32);
      // Any local process: no state, no answers, no page without the secret.
      expect((await get(`${base}board/state`)).status).toBe(401);
      expect((await get(`${base}board/answer`, {}, 'POST')).status).toBe(401);
      expect((await get(`${base}board/message`, {}, 'POST')).status).toBe(401);
      expect((await get(`${base}board/events`)).status).toBe(401);
      expect((await get(base)).status).toBe(401);
      expect((await get(`${base}?token=wrong`)).status).toBe(401);
      expect((await get(`${base}board/state`, { cookie: `raider_token=${secret}` })).status).toBe(200);
      // A malformed cookie is a 401 like any wrong token, not a 500.
      expect((await get(`${base}board/state`, { cookie: 'raider_token=%E0%A4%A' })).status).toBe(401);
      const client = await mcp(server.url);
      expect((await client.callTool({ name: 'task_list', arguments: {} })).isError).toBeFalsy();
      await client.close();

      // An API client keeps its JSON 401; a browser asking for a page gets one that says what to do.
      const api = await fetch(`${base}board/state`);
      expect([api.status, api.headers.get('content-type')]).toEqual([401, 'application/json']);
      expect((await api.json()) as unknown).toMatchObject({ error: { message: /^Unauthorized/ } });
      const asked = await fetch(`${base}board/state`, { headers: { accept: 'text/html' } });
      expect([asked.status, asked.headers.get('content-type')]).toEqual([401, 'text/html; charset=utf-8']);
      expect(await asked.text()).toBe(secretPageHtml({ tokenGiven: false, wrongToken: false }));

      // A second browser (no cookie): the page, on / and on any board path; never the secret.
      const second = await browser.newPage();
      try {
        for (const path of ['', 'board/state', 'board/events']) {
          const answer = await second.goto(`${base}${path}`);
          expect(answer?.status()).toBe(401);
          expect(await second.locator('h1').textContent()).toBe(SECRET_PAGE_TITLE);
          expect(await second.locator('p').allTextContents()).toEqual(
            secretPageText({ tokenGiven: false, wrongToken: false }),
          );
          expect(await second.content()).not.toContain(secret);
        }
        await second.goto(`${base}?token=not-the-secret`);
        expect(await second.locator('p').nth(1).textContent()).toBe(
          "The token in this address is not the board's secret.",
        );
        // The URL the server printed opens the board in this browser too.
        await second.goto(server.boardUrl as string);
        await second.waitForSelector('body[data-ready="true"]');
      } finally {
        await second.close();
      }
    } finally {
      await server.close();
    }
  }, 30_000);

  it('after a restart with a new secret the open page says so, and reloaded it is the secret page', async () => {
    const first = await boardServer();
    const port = Number(new URL(first.url).port);
    const page = await openBoard(first.boardUrl as string);
    let second: HttpServer | undefined;
    try {
      await first.close();
      second = await boardServer({ port });
      await page.waitForSelector('body[data-secret="refused"]', { timeout: 20_000 });
      expect(await page.locator('#status').textContent()).toBe(
        "The server no longer takes this page's secret (it was restarted, and makes a new secret at every start): open the board's URL it printed at start (the board: http://…/?token=…), or start it with --token to keep one.",
      );
      await page.reload();
      expect(await page.locator('h1').textContent()).toBe(SECRET_PAGE_TITLE);
      // The new URL brings the board back.
      await page.goto(second.boardUrl as string);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.locator('#status').textContent()).toBe('Live');
    } finally {
      await page.close();
      await second?.close();
    }
  }, 30_000);

  it('refuses a foreign Origin and, on a non-loopback bind, a missing token', async () => {
    const server = await boardServer();
    try {
      const page = server.url.replace('/mcp', '/');
      expect((await get(page, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await get(`${page}board/events`, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await get(`${page}board/answer`, { origin: 'https://evil.example' }, 'POST')).status).toBe(403);
      expect((await get(`${page}board/message`, { origin: 'https://evil.example' }, 'POST')).status).toBe(403);
    } finally {
      await server.close();
    }
    // Bound to every interface, with a token: reached by a loopback name, no --allowed-hosts needed.
    const open = await boardServer({ host: '0.0.0.0', token: 'b0ard-secret-0123456789' });
    try {
      const page = open.url.replace('0.0.0.0', '127.0.0.1').replace('/mcp', '/');
      expect((await get(page)).status).toBe(401);
      expect((await get(`${page}board/events`)).status).toBe(401);
      expect((await get(`${page}?token=wrong`)).status).toBe(401);
      const login = await get(`${page}?token=b0ard-secret-0123456789`);
      expect(login.status).toBe(303);
      expect(String(login.headers['set-cookie'])).toContain(
        'raider_token=b0ard-secret-0123456789; HttpOnly; SameSite=Strict',
      );
      // A browser that was given the token once uses the board with its cookie.
      const tab = await openBoard(`${page}?token=b0ard-secret-0123456789`);
      const client = await mcp(open.url.replace('0.0.0.0', '127.0.0.1'), {
        authorization: 'Bearer b0ard-secret-0123456789',
      });
      await client.callTool({ name: 'task_create', arguments: { subject: 'Behind a token', description: '' } });
      await tab.waitForSelector('.task .title:text("Behind a token")');
      await client.close();
      await tab.close();
    } finally {
      await open.close();
    }
  }, 30_000);
});
