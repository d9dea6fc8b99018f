// The types of ensure-built.mjs, for the tests that import it (apps/raider-server/test/root-scripts.test.ts).

/** Where a function looks: the workspace, by default the folder two levels above the package's. */
export interface WorkspaceOption {
  root?: string;
}

/** The build of a package and of the workspace packages it uses, as it is now. */
export interface BuildState {
  /** The package's name (undefined when no workspace package is at that folder). */
  name: string | undefined;
  /** The folders of the package and of those it uses that have a build of their own. */
  chain: string[];
  /** The names of those whose dist/ is missing. */
  missing: string[];
  /** The newest source (its path from the workspace) when it is newer than the oldest build. */
  newerSource: string | undefined;
}

/** The build of the package in `packageDir` and of the workspace packages it uses. */
export function buildState(packageDir: string, options?: WorkspaceOption): BuildState;

/**
 * Builds when a build is missing or, with `whenStale`, older than a source; returns whether it built.
 * @throws Error saying what is missing or stale and what to build first, with `refuse`, when a build was needed.
 */
export function ensureBuilt(
  packageDir: string,
  options?: WorkspaceOption & { whenStale?: boolean; refuse?: boolean },
): boolean;

/** Each file of the builds the package reads (its path from the workspace, in order) with its size and time. */
export function buildPrint(packageDir: string, options?: WorkspaceOption): Map<string, string>;

/** The files added, rewritten or removed between two prints. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[];

/** vitest's global setup; the function it returns is the teardown. */
export default function setup(project?: { config?: { root?: string } }): () => void;
