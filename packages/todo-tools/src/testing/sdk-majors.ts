/**
 * The MCP SDK majors the tests run every tool through: each with its entry's classes (`.` for v1,
 * `./v2` for v2), a server of its own and a client of its own over its in-memory transport. A
 * test written against `SdkMajor` runs through both adapters with the same golden answers (test
 * support only: not part of any entry).
 */

import { Client as ClientV2, InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import * as v1 from '../index.js';
import type { TaskToolsCore, TaskToolsOptions } from '../tasks/task-tools-core.js';
import type { TodoToolCore, TodoToolOptions } from '../todo/todo-tool-core.js';
import type { TodoWriteToolCore, TodoWriteToolOptions } from '../todo-write/todo-write-tool-core.js';
import * as v2 from '../v2/index.js';

/** A tool as tools/list shows it, the fields the tests read. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: string; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  outputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A tools/call result as the tests read it. */
export interface CallResult {
  content: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/** A connected MCP client of one major. */
export interface TestClient {
  listTools(): Promise<{ tools: ListedTool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallResult>;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

/** A server of one major (its McpServer), as the tests pass it around. */
export interface TestServer {
  readonly major: 1 | 2;
}

/** An entry's TaskTools, its server and register methods seen through TestServer. */
export type TestTaskTools = TaskToolsCore & {
  readonly server: TestServer;
  register(server: TestServer): void;
  registerClaim(server: TestServer): void;
};

/** An entry's TodoWriteTool, its server and register method seen through TestServer. */
export type TestTodoWriteTool = TodoWriteToolCore & {
  readonly server: TestServer;
  register(server: TestServer): void;
};

/** An entry's TodoTool, its server and register method seen through TestServer. */
export type TestTodoTool = TodoToolCore & {
  readonly server: TestServer;
  register(server: TestServer): void;
};

/** One SDK major under test. */
export interface SdkMajor {
  major: 1 | 2;
  /** The entry's TaskTools (`.`'s for v1, `./v2`'s for v2). */
  TaskTools: new (
    options?: TaskToolsOptions,
  ) => TestTaskTools;
  /** The entry's TodoWriteTool. */
  TodoWriteTool: new (
    options?: TodoWriteToolOptions,
  ) => TestTodoWriteTool;
  /** The entry's TodoTool. */
  TodoTool: new (
    options?: TodoToolOptions,
  ) => TestTodoTool;
  /** A new, empty McpServer of this major. */
  newServer(name?: string): TestServer;
  /** A client of this major connected to `server` over this major's in-memory transport (closed by `closeClients`). */
  connect(server: TestServer): Promise<TestClient>;
}

const open: TestClient[] = [];

/** Closes every client `connect` made (call it in afterEach). */
export async function closeClients(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.close()));
}

/** What a major's SDK gives the tests: its McpServer, its Client, and its in-memory transport's linked pair. */
interface MajorSdk {
  newServer(name: string): Connectable;
  newClient(): Connectable;
  linkedPair(): [unknown, unknown];
}

/** A server or client of either major, as `connect` uses it. */
interface Connectable {
  connect(transport: unknown): Promise<void>;
}

// The entries' classes take their own major's servers; the tests hand them the servers of the
// same major, which TestServer hides (each test reads as one text for both majors).
function sdkMajor(major: 1 | 2, entry: typeof v1 | typeof v2, sdk: MajorSdk): SdkMajor {
  return {
    major,
    TaskTools: entry.TaskTools as unknown as SdkMajor['TaskTools'],
    TodoWriteTool: entry.TodoWriteTool as unknown as SdkMajor['TodoWriteTool'],
    TodoTool: entry.TodoTool as unknown as SdkMajor['TodoTool'],
    newServer: (name = 'test') => sdk.newServer(name) as unknown as TestServer,
    async connect(server) {
      const [serverSide, clientSide] = sdk.linkedPair();
      const client = sdk.newClient();
      await Promise.all([(server as unknown as Connectable).connect(serverSide), client.connect(clientSide)]);
      const connected = client as unknown as TestClient;
      open.push(connected);
      return connected;
    },
  };
}

const V1 = sdkMajor(1, v1, {
  newServer: (name) => new McpServerV1({ name, version: '1.0.0' }),
  newClient: () => new ClientV1({ name: 'test', version: '1.0.0' }),
  linkedPair: () => InMemoryTransportV1.createLinkedPair(),
});

const V2 = sdkMajor(2, v2, {
  newServer: (name) => new McpServerV2({ name, version: '1.0.0' }),
  newClient: () => new ClientV2({ name: 'test', version: '1.0.0' }),
  // Both halves from one package: the two packages bundle separate copies of the transport.
  linkedPair: () => InMemoryTransportV2.createLinkedPair(),
});

/** Both majors, for `describe.each(SDK_MAJORS)('… (SDK v$major)', (sdk) => …)`. */
export const SDK_MAJORS: readonly SdkMajor[] = [V1, V2];
