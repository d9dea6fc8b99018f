/**
 * The board inside the chat as a feature of a conversation (board-app.ts): offered on each server
 * whose client renders MCP Apps (apps-rendered.ts), linked from the list tools the task-list
 * feature registered there, and answering questions while the app is open.
 */
import type { Answerer } from '@raider/ask-tools/v2';
import type { Feature, FeatureServer } from '../../conversation/feature.js';
import type { Logger } from '../../log.js';
import { whenAppsRendered } from './apps-rendered.js';
import { BOARD_APP_URI, BoardApp, type BoardAppOptions } from './board-app.js';

/** The tools whose answers show the list: the app is linked from them (`_meta.ui.resourceUri`). */
const LIST_TOOLS = ['task_list', 'TaskList', 'todo'];

/** The board-app feature: see the module's comment. */
export class BoardAppFeature implements Feature {
  readonly name = 'board-app';
  private readonly app: BoardApp;

  /** `enabled` false (`--no-board-app`): the app is offered to no client. */
  constructor(
    options: BoardAppOptions,
    private readonly enabled: boolean,
    private readonly log: Logger,
  ) {
    this.app = new BoardApp(options);
  }

  /** Offers the app on `server` once its client is known to render MCP Apps. */
  register(server: FeatureServer): void {
    if (!this.enabled) return;
    whenAppsRendered(server.mcp, server.era, server.request, () => {
      const linked = LIST_TOOLS.flatMap((name) => server.tools.registered(name) ?? []);
      this.app.offer(server.mcp, server.tools, linked);
      server.resources.addReader(BOARD_APP_URI, async () => this.app.read());
      this.log.debug('the client renders MCP Apps: the board app is offered');
    });
  }

  /** Tells an open app that the list or the questions changed. */
  changed(): void {
    this.app.changed();
  }

  /** The app's answerer: asks in the app while it is open. */
  answerer(): Answerer {
    return this.app.answerer();
  }

  /** Nothing to end: an app's long poll answers at its own deadline. */
  close(): void {}
}
