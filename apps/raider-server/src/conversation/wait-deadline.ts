/**
 * How long a waiting call (ask_user, wait_for_messages, board_state) may wait before it answers
 * anyway (issue 28): below the shortest cut of the host that holds the call. `--wait-deadline`
 * sets one deadline for every client; without it the deadline is chosen per client from its
 * `clientInfo`, the transport and whether the call carries a progress token (README, "Waits that
 * outlive the host"):
 *
 * | client                        | transport | its cut                                                      | deadline |
 * | Claude Code (`claude-code`)   | stdio     | 30 min without result or progress; progress resets it        | 25 min, with progress |
 * | Claude Code (`claude-code`)   | HTTP      | 300 s idle (progress resets it), dies at ~352–363 s anyway   | 290 s, with progress |
 * | anything else (Claude Desktop, Cursor, the SDK's 60 s default) | any | as short as ~60 s                | 50 s |
 */
import { CLIENT_INFO_META_KEY, type ServerContext } from '@modelcontextprotocol/server';

/** The default deadline, below the shortest cut known (Claude Desktop's ~60 s, the SDK's 60 s request timeout). */
export const DEFAULT_WAIT_DEADLINE_MS = 50_000;

/** Claude Code over stdio with progress: under its 30-minute idle cut (progress resets it; we leave room). */
export const CLAUDE_CODE_STDIO_DEADLINE_MS = 25 * 60_000;

/** Claude Code over HTTP with progress: under the ~352 s at which its Streamable HTTP calls die (claude-code #93143). */
export const CLAUDE_CODE_HTTP_DEADLINE_MS = 290_000;

/** What the deadline is chosen from. */
export interface WaitDeadlineSettings {
  /** `--wait-deadline`, in ms: one deadline for every client. */
  fixedMs?: number | undefined;
  /** How the server is reached: stdio or HTTP. */
  transport: 'stdio' | 'http';
}

/** What a call says of its client: the name in its clientInfo, and whether it carries a progress token. */
export interface CallClient {
  name: string | undefined;
  progress: boolean;
}

/** The client of the call `ctx`, served by `server` (its clientInfo from initialize, or the 2026-era envelope). */
export function callClient(
  ctx: ServerContext | undefined,
  initialized: { getClientVersion?(): { name?: string } | undefined } | undefined,
): CallClient {
  // The envelope's keys are hidden from the SDK's public types (RequestMetaEnvelope is `{}`), and
  // clientInfo is optional in it; a server made for one request may have no getClientVersion.
  const envelope = ctx?.mcpReq?.envelope as Record<string, unknown> | undefined;
  const fromEnvelope = (envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined)?.name;
  const fromInitialize =
    typeof initialized?.getClientVersion === 'function' ? initialized.getClientVersion()?.name : undefined;
  const name = typeof fromEnvelope === 'string' ? fromEnvelope : fromInitialize;
  return {
    name: typeof name === 'string' ? name : undefined,
    progress: ctx?.mcpReq?._meta?.progressToken !== undefined,
  };
}

/** The deadline of a waiting call from `client`, in ms (see the module's table). */
export function waitDeadlineMs(settings: WaitDeadlineSettings, client: CallClient): number {
  if (settings.fixedMs !== undefined) return settings.fixedMs;
  if (client.name === 'claude-code' && client.progress) {
    return settings.transport === 'stdio' ? CLAUDE_CODE_STDIO_DEADLINE_MS : CLAUDE_CODE_HTTP_DEADLINE_MS;
  }
  return DEFAULT_WAIT_DEADLINE_MS;
}
