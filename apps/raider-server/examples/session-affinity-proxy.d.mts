/** A running session-affinity proxy (see session-affinity-proxy.mjs). */
export interface AffinityProxy {
  /** Its base URL (the MCP endpoint is `${url}/mcp`, as on the backends). */
  readonly url: string;
  readonly port: number;
  /** Session id -> index of the backend that issued it. */
  readonly sessions: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Starts the proxy: round robin without Mcp-Session-Id, the issuing backend with one. */
export function startAffinityProxy(options: {
  port?: number;
  host?: string;
  backends: readonly (string | URL)[];
}): Promise<AffinityProxy>;
