/**
 * The board inside the chat: an MCP App (the `io.modelcontextprotocol/ui` extension) for hosts that
 * render them. A conversation whose client announces the extension gets the `ui://raider/board`
 * resource (one self-contained HTML file, board-app/), linked from task_list (and the `todo` tool)
 * through `_meta.ui.resourceUri`, and three app-only tools the app calls through the host:
 * `board_state` (a long poll: it answers when the list changes), `board_set_status` (through the
 * task tools' own checks; an unknown task is an error there) and `board_answer` (answers an open question, as the web board does).
 * A client without the extension sees none of it: the tools and the resource are not registered,
 * and task_list carries no `_meta`. A 2025-era client announces the extension at initialize; a
 * 2026-era one in each request's envelope (apps-rendered.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import type { Answerer } from '@raider/ask-tools/v2';
import { received } from '@raider/kit/received';
import { z } from 'zod';
import type { AppState } from '../../../board-app/app-state.js';
import { boardTasks } from '../../board/board.js';
import { type PendingQuestion, pageAsker, replyToQuestion } from '../../board/pending-question.js';
import { PACKAGE_DIR } from '../../board/routes.js';
import type { ToolPipeline } from '../../conversation/call-pipeline.js';
import type { Family } from '../../types.js';

/** The app's resource. */
export const BOARD_APP_URI = 'ui://raider/board';
/** The MIME type of an MCP App (ext-apps' RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension a client announces in `capabilities.extensions` (ext-apps' EXTENSION_ID). */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
/** The legacy flat key for the resource of a tool (ext-apps' RESOURCE_URI_META_KEY), set beside `ui`. */
const LEGACY_RESOURCE_KEY = 'ui/resourceUri';

/** How long `board_state` waits for a change before it answers anyway, in ms. */
const LONG_POLL_MS = 20_000;
/** An app that has not asked for the state for this long is taken to be closed (it asks nothing then). */
const WATCHING_MS = 30_000;

/** True when the client's capabilities announce MCP Apps (the extension, with the app MIME type). */
export function rendersApps(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  const ui = extensions?.[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}

// A cache of an immutable value, so it may live at module level: the built page holds nothing of a server.
let html: string | undefined;
/** The app, built by Vite into one file (dist/board-app/index.html) and shipped inside the package. */
function appHtml(): string {
  html ??= readFileSync(join(PACKAGE_DIR, 'dist', 'board-app', 'index.html'), 'utf8');
  return html;
}

/** What the board app of a conversation is built from. */
export interface BoardAppOptions {
  family: Family;
  /** The list as raider://tasks shows it. */
  listState: () => Promise<unknown>;
  /** Changes a task's status through the family's own tool (its checks, its answers); none for todo_write. */
  setStatus: ((taskId: string, status: string) => Promise<{ text: string; isError: boolean }>) | undefined;
}

type Pending = PendingQuestion;

const STATUSES = ['pending', 'in_progress', 'completed'];

/** The tasks family's whole answer to an update of an unknown id (Claude Code's, not an error). */
const TASK_NOT_FOUND = 'Task not found';

/**
 * An argument as the SDK sees it (anything gets through: the tool checks it and words the refusal
 * itself), advertised to clients with its real JSON Schema.
 */
const argument = (schema: Record<string, unknown>) => z.unknown().optional().meta(schema);

/** The app-only tools' arguments. */
const INPUT = {
  state: {
    after: argument({
      type: 'integer',
      description: 'The version the app drew; answers once the list changed after it.',
    }),
  },
  setStatus: {
    taskId: argument({ type: 'string', description: 'Id of the task.' }),
    status: argument({ type: 'string', enum: STATUSES, description: 'Its new status.' }),
  },
  answer: {
    questionId: argument({ type: 'string', description: 'Id of the open question.' }),
    answer: argument({ type: 'string', description: 'The answer (one of the options, or free text).' }),
    decline: argument({ type: 'boolean', description: 'True to decline the question.' }),
  },
};

/** An app-only tool's config. */
const appToolConfig = (
  title: string,
  description: string,
  inputSchema: Record<string, z.ZodType>,
  readOnly: boolean,
) => ({
  title,
  description: `For the board app: ${description}`,
  inputSchema: z.object(inputSchema),
  _meta: { ui: { visibility: ['app'] } },
  annotations: { readOnlyHint: readOnly, destructiveHint: false, openWorldHint: false },
});

// Immutable configs, made once for every server of the process: they hold nothing of a server.
let tools: Record<'state' | 'setStatus' | 'answer', ReturnType<typeof appToolConfig>> | undefined;
/** The app-only tools' configs, made once: a 2026-era server over HTTP is made (and offered the app) per request. */
function appTools() {
  tools ??= {
    state: appToolConfig(
      'Board state',
      'the list and the open questions; with `after`, waits until they change after that version.',
      INPUT.state,
      true,
    ),
    setStatus: appToolConfig(
      'Set a task status',
      "changes a task's status, through the task tools' own checks.",
      INPUT.setStatus,
      false,
    ),
    answer: appToolConfig(
      'Answer a question',
      'answers (or declines) an open question; the first answer anywhere wins.',
      INPUT.answer,
      false,
    ),
  };
  return tools;
}

const error = (text: string): CallToolResult => ({
  content: [{ type: 'text', text: `Error: ${text}` }],
  isError: true,
});

/** The board app of one conversation. */
export class BoardApp {
  private version = 0;
  private readonly waiting = new Set<() => void>();
  private readonly questions = new Map<string, Pending>();
  private watchedAt = 0;
  private enabled = false;

  constructor(private readonly options: BoardAppOptions) {}

  /** The state the app draws, once it changed after `after` (or after a while, unchanged). */
  private async state(
    after: number | undefined,
    signal: AbortSignal | undefined,
    waitMs = LONG_POLL_MS,
  ): Promise<CallToolResult> {
    this.watchedAt = Date.now();
    if (after === this.version) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiting.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        const timer = setTimeout(wake, waitMs);
        timer.unref();
        this.waiting.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
      this.watchedAt = Date.now();
    }
    const state: AppState = {
      version: this.version,
      family: this.options.family,
      editable: this.options.setStatus !== undefined,
      tasks: boardTasks(await this.options.listState()),
      questions: [...this.questions.values()].map(({ id, question, options }) => ({ id, question, options })),
    };
    const now = state.tasks.filter((task) => task.status === 'in_progress').length;
    return {
      content: [
        {
          type: 'text',
          text: `${state.tasks.length} tasks, ${now} in progress, ${state.questions.length} open questions`,
        },
      ],
      structuredContent: state as unknown as Record<string, unknown>,
    };
  }

  /** Tells the app the list or the questions changed. */
  changed(): void {
    this.version += 1;
    for (const wake of [...this.waiting]) wake();
  }

  /** Whether the client renders apps and the app is offered. */
  get offered(): boolean {
    return this.enabled;
  }

  /** The app's answerer: asks in the app while it is open (it asked for the state lately). */
  answerer(): Answerer {
    return () => {
      if (!this.enabled || Date.now() - this.watchedAt > WATCHING_MS) return undefined;
      const asker = pageAsker(
        this.questions,
        () => this.changed(),
        () => ({}),
      );
      return asker;
    };
  }

  /**
   * Offers the app on `server` (a client that renders apps announced itself): the app-only tools
   * (through the server's call pipeline, `tools`), the `ui://` resource, and the link on the list
   * tools `linked`.
   */
  offer(server: McpServer, tools: ToolPipeline, linked: RegisteredTool[]): void {
    this.enabled = true;
    const configs = appTools();
    // board_state answers unchanged by the call's deadline at the latest (issue 28).
    // The app's tools are its person's, not the server's agent's: a status set there is nobody's
    // change (`Someone changed your task …`), as on the web board.
    tools.register({
      name: 'board_state',
      config: configs.state,
      handler: (args, call) =>
        this.stateCall(args, call.request.mcpReq?.signal, Math.min(LONG_POLL_MS, call.deadlineMs)),
      person: true,
    });
    tools.register({
      name: 'board_set_status',
      config: configs.setStatus,
      handler: (args) => this.setStatusCall(args),
      person: true,
    });
    tools.register({
      name: 'board_answer',
      config: configs.answer,
      handler: (args) => this.answerCall(args),
      person: true,
    });
    server.registerResource(
      'board-app',
      BOARD_APP_URI,
      { title: 'Task board', description: 'The task list as a live board (an MCP App).', mimeType: APP_MIME_TYPE },
      async () => this.read(),
    );
    const link = { ui: { resourceUri: BOARD_APP_URI }, [LEGACY_RESOURCE_KEY]: BOARD_APP_URI };
    for (const tool of linked) tool.update({ _meta: { ...(tool._meta ?? {}), ...link } });
  }

  /** board_state: the state, once it changed after `after`. */
  private stateCall(
    args: Record<string, unknown> | undefined,
    signal: AbortSignal | undefined,
    waitMs: number,
  ): Promise<CallToolResult> {
    const after = args?.after;
    if (after !== undefined && !Number.isSafeInteger(after)) {
      return Promise.resolve(
        error(`after: expected the version the app drew (a whole number), received ${received(after)}`),
      );
    }
    return this.state(after as number | undefined, signal, waitMs);
  }

  /** board_set_status: a task's status changed through the family's own tool. */
  private async setStatusCall(args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const setStatus = this.options.setStatus;
    if (!setStatus) {
      return error('this list is todo_write, which the model replaces whole; its items are not changed one by one');
    }
    const { taskId, status } = args ?? {};
    if (typeof taskId !== 'string' || !/^[1-9][0-9]{0,15}$/.test(taskId)) {
      return error(`taskId: expected a task id such as "1", received ${received(taskId)}`);
    }
    if (typeof status !== 'string' || !STATUSES.includes(status)) {
      return error(`status: expected one of ${STATUSES.join(', ')}, received ${received(status)}`);
    }
    const answer = await setStatus(taskId, status);
    // task_update answers an unknown id with a plain `Task not found`, not an error, because Claude
    // Code's TaskUpdate does and models are used to it. An app-only tool has no such answer to
    // match, and the app must see the call failed: here it is an error saying what was expected.
    if (!answer.isError && answer.text === TASK_NOT_FOUND) {
      return error(`taskId: expected the id of a task on the list, received ${received(taskId)} (no task #${taskId})`);
    }
    return { content: [{ type: 'text', text: answer.text }], ...(answer.isError ? { isError: true } : {}) };
  }

  /** board_answer: an open question answered, or declined. */
  private async answerCall(args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const { questionId, answer, decline } = args ?? {};
    if (typeof questionId !== 'string' || !this.questions.has(questionId)) {
      return error(
        `questionId: expected an open question's id, received ${received(questionId)} (answered or withdrawn already?)`,
      );
    }
    if (decline === true) {
      replyToQuestion(this.questions, questionId, { decline: true });
      return { content: [{ type: 'text', text: 'Declined' }] };
    }
    if (typeof answer !== 'string' || answer.length > 10_000) {
      return error(`answer: expected the answer (text of at most 10000 characters), received ${received(answer)}`);
    }
    replyToQuestion(this.questions, questionId, { answer });
    return { content: [{ type: 'text', text: 'Answered' }] };
  }

  /** The resource: the app's HTML, with its CSP (no network beyond the host bridge) and border preference. */
  read(): { contents: { uri: string; mimeType: string; text: string; _meta: Record<string, unknown> }[] } {
    return {
      contents: [
        {
          uri: BOARD_APP_URI,
          mimeType: APP_MIME_TYPE,
          text: appHtml(),
          _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
        },
      ],
    };
  }
}
