// The board inside the chat: the MCP App in real Chromium, in a host page built on ext-apps' own
// app bridge, connected to a real raider-server over HTTP.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, BOARD_APP_URI, UI_EXTENSION } from '../src/features/board-app/board-app.js';
import { type HttpServer, readOptions, startHttp } from '../src/index.js';
import { launchChromium } from './chromium.js';
import { textOf } from './helpers.js';

const ARTIFACTS = fileURLToPath(new URL('../test-results/', import.meta.url));
const APPS = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

let browser: Browser;
let hostScript: string;
beforeAll(async () => {
  browser = await launchChromium();
  // The host page's script: ext-apps' app bridge, bundled for the browser.
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      lib: {
        entry: fileURLToPath(new URL('./app-host/host.ts', import.meta.url)),
        formats: ['iife'],
        name: 'RaiderTestHost',
      },
      minify: false,
    },
  });
  const [result] = Array.isArray(output) ? output : [output];
  hostScript = (result as { output: { code?: string }[] }).output[0]?.code as string;
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

async function client(url: string, capabilities: Record<string, unknown> = {}) {
  const c = new Client({ name: 'app-test', version: '1.0.0' }, { capabilities });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

/** What the host page needs of an MCP client (an SDK v1 one, or a v2 one in either era). */
interface HostClient {
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

/** Opens the app of `host` (a client that renders apps) in a host page; the app's frame. */
async function openApp(host: HostClient, theme = 'light'): Promise<{ page: Page; app: FrameLocator }> {
  const tools = (await host.listTools()).tools;
  const list = tools.find((tool) => tool.name === 'task_list');
  const uri = (list?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri as string;
  const read = await host.readResource({ uri });
  const html = (read.contents[0] as { text: string }).text;
  const page = await browser.newPage({ viewport: { width: 700, height: 600 } });
  await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) =>
    host.callTool(params),
  );
  await page.setContent(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
  await page.evaluate(([appHtml, context]) => window.startHost(appHtml as string, context as Record<string, unknown>), [
    html,
    { theme, containerDimensions: { maxHeight: 500, width: 640 } },
  ] as const);
  const app = page.frameLocator('iframe');
  await app.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 });
  return { page, app };
}

describe('the board app (MCP Apps)', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttp({ ...readOptions(['--http', '--port', '0', '--list', 'team'], {}) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('speaks the extension as ext-apps names it', () => {
    expect(UI_EXTENSION).toBe(EXTENSION_ID);
    expect(APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(RESOURCE_URI_META_KEY).toBe('ui/resourceUri');
  });

  it('a client without the extension gets exactly the tools and resources of before: no _meta.ui, no app', async () => {
    const plain = await client(server.url);
    try {
      const tools = (await plain.listTools()).tools;
      expect(tools.map((tool) => tool.name)).toEqual([
        'task_create',
        'task_update',
        'task_list',
        'task_get',
        'ask_user',
      ]);
      for (const tool of tools) expect(tool._meta).toBeUndefined();
      expect((await plain.listResources()).resources.map((r) => r.uri)).toEqual(['raider://tasks', 'raider://work']);
      await expect(plain.readResource({ uri: BOARD_APP_URI })).rejects.toThrow(/Resource not found/);
    } finally {
      await plain.close();
    }
  });

  it('renders the list live, changes a status, and answers a question, beside another client', async () => {
    const host = await client(server.url, APPS);
    const other = await client(server.url);
    const { page, app } = await openApp(host);
    try {
      const tools = (await host.listTools()).tools;
      expect(tools.find((t) => t.name === 'task_list')?._meta).toEqual({
        ui: { resourceUri: BOARD_APP_URI },
        'ui/resourceUri': BOARD_APP_URI,
      });
      for (const name of ['board_state', 'board_set_status', 'board_answer']) {
        expect(tools.find((t) => t.name === name)?._meta).toEqual({ ui: { visibility: ['app'] } });
      }
      await host.callTool({
        name: 'task_create',
        arguments: { subject: 'Write the parser', description: '', activeForm: 'Writing the parser' },
      });
      await host.callTool({ name: 'task_create', arguments: { subject: 'Write the printer', description: '' } });
      await host.callTool({ name: 'task_update', arguments: { taskId: '2', addBlockedBy: ['1'], owner: 'alice' } });
      await host.callTool({ name: 'task_update', arguments: { taskId: '1', status: 'in_progress' } });
      await app.locator('.now .title', { hasText: '#1 Write the parser' }).waitFor();
      await expect(app.locator('.now .active').textContent()).resolves.toBe('Writing the parser');
      await expect(app.locator('[data-id="2"] .owner').textContent()).resolves.toBe('alice');
      await expect(app.locator('[data-id="2"] .blocked').textContent()).resolves.toBe('blocked by #1');

      // A change made by another client shows within a second.
      const before = Date.now();
      await other.callTool({ name: 'task_create', arguments: { subject: 'From the other client', description: '' } });
      await app.locator('.title', { hasText: 'From the other client' }).waitFor({ timeout: 5000 });
      expect(Date.now() - before).toBeLessThan(1000);

      // A status changed in the app (by keyboard) is in the list.
      const select = app.locator('[data-id="3"] select.status');
      await select.focus();
      await select.selectOption('completed');
      await expect
        .poll(async () => textOf(await other.callTool({ name: 'task_get', arguments: { taskId: '3' } })), {
          timeout: 5000,
        })
        .toContain('Status: completed');

      // The app, like the list tools, follows the task tools' checks: an unknown id is refused, nothing changes.
      const refused = await host.callTool({ name: 'board_set_status', arguments: { taskId: '1', status: 'done' } });
      expect(textOf(refused)).toBe('Error: status: expected one of pending, in_progress, completed, received "done"');

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.locator('iframe').screenshot({ path: `${ARTIFACTS}board-app.png` });

      // A question is answered from the app (the client cannot elicit: the app is where it is asked).
      const asked = host.callTool({
        name: 'ask_user',
        arguments: { question: 'Which port?', options: ['3000', '8080'] },
      });
      await app.locator('form.question p', { hasText: 'Which port?' }).waitFor({ timeout: 10_000 });
      await app.locator('form.question button.choice', { hasText: '8080' }).click();
      expect(textOf(await asked)).toBe('8080');
      await app.locator('form.question').waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      await page.close();
      await host.close();
      await other.close();
    }
  }, 90_000);

  it('the `todo` family links its one tool to the app too', async () => {
    const todo = await startHttp({ ...readOptions(['--http', '--port', '0', '--family', 'todo'], {}) });
    const host = await client(todo.url, APPS);
    try {
      const tools = (await host.listTools()).tools;
      expect(tools.find((t) => t.name === 'todo')?._meta).toEqual({
        ui: { resourceUri: BOARD_APP_URI },
        'ui/resourceUri': BOARD_APP_URI,
      });
      await host.callTool({ name: 'todo', arguments: { action: 'create', subject: 'A' } });
      expect(
        textOf(await host.callTool({ name: 'board_set_status', arguments: { taskId: '1', status: 'in_progress' } })),
      ).toBe('Updated #1 (pending → in_progress)');
    } finally {
      await host.close();
      await todo.close();
    }
  });

  it('--no-board-app (RAIDER_BOARD_APP=0) turns it off, even for a client that renders apps', async () => {
    expect(readOptions(['--no-board-app'], {}).boardApp).toBe(false);
    expect(readOptions([], { RAIDER_BOARD_APP: '0' }).boardApp).toBe(false);
    expect(readOptions([], {}).boardApp).toBe(true);
    const off = await startHttp({ ...readOptions(['--http', '--port', '0', '--no-board-app'], {}) });
    const host = await client(off.url, APPS);
    try {
      const tools = (await host.listTools()).tools;
      expect(tools.map((t) => t.name)).toEqual(['task_create', 'task_update', 'task_list', 'task_get', 'ask_user']);
      expect(tools.find((t) => t.name === 'task_list')?._meta).toBeUndefined();
    } finally {
      await host.close();
      await off.close();
    }
  });

  it('renders for a 2026-era host too (an SDK v2 client announcing the extension per request)', async () => {
    const host = new ModernClient(
      { name: 'app-test-2026', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: APPS },
    );
    await host.connect(new ModernHttpTransport(new URL(server.url)));
    expect(host.getProtocolEra()).toBe('modern');
    const { page, app } = await openApp(host);
    try {
      await host.callTool({ name: 'task_create', arguments: { subject: 'From the 2026 era', description: '' } });
      await app.locator('.title', { hasText: 'From the 2026 era' }).waitFor({ timeout: 5000 });
      const id = (await app.locator('.task', { hasText: 'From the 2026 era' }).getAttribute('data-id')) as string;
      await app.locator(`[data-id="${id}"] select.status`).selectOption('completed');
      await expect
        .poll(async () => textOf(await host.callTool({ name: 'task_get', arguments: { taskId: id } })), {
          timeout: 5000,
        })
        .toContain('Status: completed');
    } finally {
      await page.close();
      await host.close();
    }
  }, 60_000);

  it('follows the host theme', async () => {
    const host = await client(server.url, APPS);
    const { page, app } = await openApp(host, 'dark');
    try {
      await expect(app.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    } finally {
      await page.close();
      await host.close();
    }
  }, 60_000);
});
