// Commands the release test runs, as a maintainer or a user would type them: each with an
// environment made on purpose, a time limit, and its output kept for the failure message.
import { type ChildProcess, spawn } from 'node:child_process';

/** The result of a finished command. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came. */
  output: string;
  ms: number;
}

/**
 * Variables a run of the test inherits from its own launcher that a maintainer's shell or a
 * user's does not have: pnpm's and npm's script variables (an `npm_config_registry` among them
 * would send a publish elsewhere), vitest's, NODE_ENV.
 */
const LAUNCHER_VARIABLE = /^(npm_|pnpm_|NPM_CONFIG_|PNPM_|VITEST|TURBO_|INIT_CWD$|NODE_ENV$|TEST$|NODE_OPTIONS$)/i;

/**
 * This machine's environment as a person's shell has it: the launcher's variables dropped, the
 * CA and proxy settings kept, and loopback (the test's registry and servers) never proxied.
 */
export function shellEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !LAUNCHER_VARIABLE.test(key)) env[key] = value;
  }
  const noProxy = [env.no_proxy ?? env.NO_PROXY, '127.0.0.1', 'localhost', '::1'].filter(Boolean).join(',');
  env.no_proxy = noProxy;
  env.NO_PROXY = noProxy;
  return { ...env, ...extra };
}

const running = new Set<ChildProcess>();

// A run that ends without its cleanup (an uncaught error, a signal that lets the process exit)
// still ends the process groups it started: they are detached, so nothing else would.
process.once('exit', () => {
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

/** Every process the test started that has not exited yet (to stop them all at the end). */
export function runningChildren(): ChildProcess[] {
  return [...running];
}

/**
 * Spawns `command args` in a process group of its own (so that `stop` ends what it starts too),
 * its stdout and stderr piped, and tracks it until it exits (so that `stopAll` ends it).
 */
function spawnTracked(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
  stdin: 'ignore' | 'pipe',
): ChildProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [stdin, 'pipe', 'pipe'],
    detached: true,
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Spawns a long-running process (a server), tracked so that `stopAll` ends it. */
export function start(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): ChildProcess {
  return spawnTracked(command, args, options, 'ignore');
}

/**
 * Ends `child` and every process it started (its process group: npx's node under npm, a server
 * under npx): SIGTERM, then SIGKILL after `graceMs`.
 */
export async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), name);
    } catch {
      // The group is gone already.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // A grandchild that outlived its parent (kept the group) goes too.
  signal('SIGKILL');
}

/** Stops every process the test started and has not stopped. */
export async function stopAll(): Promise<void> {
  await Promise.all(runningChildren().map((child) => stop(child)));
}

/**
 * Runs `command args` to its end (or kills it at `timeoutMs`), in its own process group so that
 * a timeout ends what it started too.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; input?: string },
): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawnTracked(command, args, options, 'pipe');
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      output += chunk;
    });
    // A command that exits without reading its input (most never read it) closes the pipe: the
    // write then fails with EPIPE, which is not the command's outcome (its exit code is), and
    // unheard it would crash the run.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
    const timeoutMs = options.timeoutMs ?? 5 * 60_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void stop(child, 2_000);
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(new Error(`${command} ${args.join(' ')}: ${error.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      const ran = { code, stdout, stderr, output, ms: performance.now() - started };
      if (timedOut)
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${options.cwd}) was still running after ${timeoutMs / 1000} s:\n${tail(output)}`,
          ),
        );
      else resolve(ran);
    });
  });
}

/** Runs a command that must succeed; its output when it does not. */
export async function runOk(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; input?: string },
): Promise<Ran> {
  const ran = await run(command, args, options);
  if (ran.code !== 0)
    throw new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited ${ran.code}:\n${tail(ran.output, 60)}`);
  return ran;
}

/** The last lines of some output, for a message a person can act on. */
export function tail(text: string, lines = 30): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}
