/**
 * What a feature of a conversation is: the task list (features/tasks), the messaging and its
 * wake-ups (features/messages), the question tool (features/questions) and the board inside the
 * chat (features/board-app). Each is a room of its own. The conversation (conversation.ts) makes
 * its features, registers each on every server it makes, and closes them when it ends. Features
 * never import each other (the circle check fails one that does, `.dependency-cruiser.cjs`): what
 * one needs of another is a callback the conversation hands it when it makes it.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import type { AnswerWatch } from '../transport/answer-watch.js';
import type { Era } from '../types.js';
import type { ToolPipeline } from './call-pipeline.js';
import type { ConversationMcpServer } from './conversation-server.js';

/** The features there are, in the order a server registers them (the order of tools/list). */
export type FeatureName = 'tasks' | 'questions' | 'messages' | 'board-app';

/** Who a server serves and how it learns that an answer was written (per connection or request). */
export interface Caller {
  /** The agent a request or session names (X-Raider-Agent); `--agent` beats it. */
  agent?: string | undefined;
  /** Word of written answers: done only then. Without it (embedded use) a delivery is done as its answer is returned. */
  answers?: AnswerWatch | undefined;
}

/** What a server's resources take besides raider://tasks and raider://work: a reader for a URI of a feature. */
export interface ServerResources {
  /** Makes `uri` readable (and subscribable) on the server, read by `read`. */
  addReader(uri: string, read: () => Promise<ReadResourceResult>): void;
}

/** One server of the conversation, as a feature registers on it. */
export interface FeatureServer {
  /** The SDK server (for what a feature registers beside its tools: resources, a watch of requests). */
  readonly mcp: ConversationMcpServer;
  /** The era it serves: one connection of the 2025 era, or 2026-era requests. */
  readonly era: Era;
  /** The 2026-era request it is made for over HTTP (the client capabilities its envelope declares); undefined otherwise. */
  readonly request: { clientCapabilities?: unknown } | undefined;
  /** Who the connection or request names, and word of its written answers. */
  readonly caller: Caller | undefined;
  /**
   * The agent the server serves: `--agent`, else the caller's, else the conversation's own id when
   * messaging is on (`--team`); undefined when the messaging tools are not mounted on it.
   */
  readonly agent: string | undefined;
  /** Where a feature's tools go: every call of each passes the call pipeline's steps (call-pipeline.ts). */
  readonly tools: ToolPipeline;
  /** The server's resources, for a feature's own URI. */
  readonly resources: ServerResources;
}

/** A feature of a conversation: registered on each of its servers, closed when it ends. */
export interface Feature {
  /** Which feature it is. */
  readonly name: FeatureName;
  /** Registers the feature's tools and resources on `server`, a fresh server of the conversation. */
  register(server: FeatureServer): void;
  /** Ends what the feature holds (watches, open questions, timers): the conversation ends, with `reason`. */
  close(reason: string): void;
}
