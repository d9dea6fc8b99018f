/**
 * The resources of a conversation, raider://tasks and raider://work, with subscriptions (McpServer
 * does not implement resources/subscribe itself). Reads and subscriptions name one of them or are
 * refused with the specification's resource-not-found error. A 2025-era client subscribes with
 * resources/subscribe; a 2026-era one with `subscriptions/listen`, which the SDK's serving entry
 * answers itself and to which it routes the server's `notifications/resources/updated`.
 */
import { type McpServer, type ReadResourceResult, ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { TaskRegistry } from '@raider/tasks-registry';

/** The resource with the conversation's task list. */
export const TASKS_URI = 'raider://tasks';
/** The resource with the registry's entries (open and ended questions). */
export const WORK_URI = 'raider://work';

/** JSON of registry entries without the functions and promises they hold. */
export function plainEntries(registry: TaskRegistry): unknown[] {
  return registry
    .entries()
    .map((entry) =>
      Object.fromEntries(Object.entries(entry).filter(([, v]) => typeof v !== 'function' && !(v instanceof Promise))),
    );
}

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

/**
 * Registers raider://tasks (what `listState` gives) and raider://work (the registry's entries) and
 * the subscription handlers. Returns `notify(uri)`: tells the subscribers of `uri` it changed.
 */
export function registerResources(
  server: McpServer,
  era: 'legacy' | 'modern',
  listState: () => Promise<unknown>,
  registry: TaskRegistry,
): { notify(uri: string): void; addReader(uri: string, read: () => Promise<ReadResourceResult>): void } {
  const subscribed = new Set<string>();
  server.registerResource(
    'tasks',
    TASKS_URI,
    { title: 'Task list', description: "This conversation's task list.", mimeType: 'application/json' },
    async (uri) => json(uri, await listState()),
  );
  server.registerResource(
    'work',
    WORK_URI,
    {
      title: 'Background work',
      description: 'Questions and other work of this conversation.',
      mimeType: 'application/json',
    },
    async (uri) => json(uri, plainEntries(registry)),
  );
  const readers: Record<string, () => Promise<ReadResourceResult>> = {
    [TASKS_URI]: async () => json(new URL(TASKS_URI), await listState()),
    [WORK_URI]: async () => json(new URL(WORK_URI), plainEntries(registry)),
  };
  // SDK v2 sends resource-not-found as -32602 with data { uri } on every revision (2026-07-28's
  // MUST; v2 maps -32002 to it): a client reads it as such from the data (README, "Both eras").
  const known = (uri: string) => {
    const reader = readers[uri];
    if (!Object.hasOwn(readers, uri) || !reader) {
      const shown = uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
      throw new ResourceNotFoundError(
        uri.slice(0, 200),
        `Resource not found: ${shown}; expected ${Object.keys(readers).join(' or ')}`,
      );
    }
    return reader;
  };
  server.server.removeRequestHandler('resources/read');
  server.server.setRequestHandler('resources/read', async (request) => known(request.params.uri)());
  if (era === 'legacy') {
    server.server.setRequestHandler('resources/subscribe', async (request) => {
      known(request.params.uri);
      subscribed.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }
  return {
    notify(uri: string) {
      // 2026 era: the serving entry delivers it on the listen streams whose filter names `uri`.
      if (era === 'modern' || subscribed.has(uri)) server.server.sendResourceUpdated({ uri }).catch(() => {});
    },
    addReader(uri: string, read: () => Promise<ReadResourceResult>) {
      readers[uri] = read;
    },
  };
}
