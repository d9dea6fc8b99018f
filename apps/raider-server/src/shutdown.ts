/** How the server stops: the bounds every transport's shutdown keeps. */

/** The whole stop (SIGTERM or SIGINT to exit) takes less than this, in ms. */
export const SHUTDOWN_LIMIT_MS = 5000;

/** How long a shutdown waits for the calls in flight to finish and answer, in ms. */
export const SHUTDOWN_GRACE_MS = 4000;
