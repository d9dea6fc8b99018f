// The rules that keep the server's rooms apart (README, "Architecture"), in the root's
// `.dependency-cruiser.cjs`, which `pnpm check:circles` runs: a feature never imports another, the
// board never imports a feature, and the board, the options and the lists never import the
// conversation above them. Each rule is tried on a small tree that breaks it, and the server's own
// tree is checked to keep every one of them.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** Runs the circle check on `paths` in `cwd`; resolves with its exit code and everything it printed. */
function cruise(cwd: string, paths: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(DEPCRUISE, ['--config', CONFIG, ...paths], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

/** Writes `files` (path under the folder: source) into `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
}

/** The lines of the check's report that name `rule`. */
const linesOf = (output: string, rule: string) => output.split('\n').filter((line) => line.includes(rule));

describe("the rules of the server's rooms", () => {
  const dir = mkdtempSync(join(tmpdir(), 'raider-room-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const src = 'apps/raider-server/src';

  it('fail a feature importing another, the board importing a feature, and an import up into the conversation', async () => {
    write(dir, {
      [`${src}/features/messages/inbox.ts`]: 'export const inbox = 1;\n',
      // A type-only import counts too: it ties the rooms together all the same.
      [`${src}/features/tasks/list.ts`]:
        "import type { inbox } from '../messages/inbox.js';\nexport const list: typeof inbox = 1;\n",
      // Within one feature, and from the conversation down into a feature: allowed.
      [`${src}/features/tasks/tools.ts`]: "import { list } from './list.js';\nexport const tools = list;\n",
      [`${src}/conversation/core.ts`]:
        "import { tools } from '../features/tasks/tools.js';\nexport const core = tools;\n",
      [`${src}/board/page.ts`]: "import { inbox } from '../features/messages/inbox.js';\nexport const page = inbox;\n",
      [`${src}/options/flags.ts`]: "import { core } from '../conversation/core.js';\nexport const flags = core;\n",
      [`${src}/lists/memory.ts`]: "import { core } from '../conversation/core.js';\nexport const memory = core;\n",
    });
    const { code, output } = await cruise(dir, [src]);
    expect(code).not.toBe(0);
    const apart = linesOf(output, 'server-features-apart');
    expect(apart).toHaveLength(1);
    expect(apart[0]).toContain(`${src}/features/tasks/list.ts → ${src}/features/messages/inbox.ts`);
    const board = linesOf(output, 'server-board-not-features');
    expect(board).toHaveLength(1);
    expect(board[0]).toContain(`${src}/board/page.ts → ${src}/features/messages/inbox.ts`);
    const up = linesOf(output, 'server-no-import-up');
    expect(up.map((line) => line.replace(/^.*: /, '').trim()).sort()).toEqual([
      `${src}/lists/memory.ts → ${src}/conversation/core.ts`,
      `${src}/options/flags.ts → ${src}/conversation/core.ts`,
    ]);
    // Nothing else is refused: the allowed imports pass.
    expect(output).not.toContain('tools.ts →');
    expect(output).not.toContain('core.ts → ');
  });

  it("hold in the server's own tree", async () => {
    const { code, output } = await cruise(ROOT, [src]);
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});
