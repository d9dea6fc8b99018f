/** What a 2026-era request says of its client in its `_meta` envelope, read before the SDK sees it. */
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';

/**
 * The client capabilities a 2026-era request declares in its `_meta` envelope
 * (`io.modelcontextprotocol/clientCapabilities`), read from the parsed JSON-RPC message; undefined
 * for anything else (a 2025-era request, a notification, a malformed body).
 */
export function envelopeCapabilities(message: unknown): unknown {
  const params = (message as { params?: unknown } | null | undefined)?.params;
  return (params as { _meta?: Record<string, unknown> } | null | undefined)?._meta?.[CLIENT_CAPABILITIES_META_KEY];
}
