// The rule that keeps `./internal` entries internal (docs/decisions/0011-internal-entries.md): the
// root's biome configuration fails an import of `@raider/<package>/internal` with a message that says
// what to do instead, and no package but this server turns it off.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIOME = join(ROOT, 'node_modules/.bin/biome');

/** Runs biome lint in `cwd`; resolves with its exit code and everything it printed. */
function lint(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(BIOME, ['lint', '--max-diagnostics=50', 'src'], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('the ./internal import rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'raider-internal-rule-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fails an import of a package's ./internal entry, and only that one, saying why", async () => {
    // The root's configuration as it is, in a folder of its own (no git: the ignore file is the repo's).
    const config = JSON.parse(readFileSync(join(ROOT, '.biome.json'), 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    delete config.vcs;
    writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
    mkdirSync(join(dir, 'src'));
    writeFileSync(
      join(dir, 'src/probe.ts'),
      [
        "import { internalName } from '@raider/todo-tools/internal';",
        "import { TaskTools } from '@raider/todo-tools';",
        "import { AskTools } from '@raider/ask-tools/v2';",
        'export const used = [internalName, TaskTools, AskTools];',
        '',
      ].join('\n'),
    );
    const { code, output } = await lint(dir);
    expect(code).not.toBe(0);
    expect(output.match(/lint\/style\/noRestrictedImports/g)).toHaveLength(1);
    expect(output).toContain('src/probe.ts:1:');
    expect(output).toContain(
      "A package's ./internal entry is raider's own wiring, for @raider/server alone: it is not public API and not covered by semver. Import from the package's documented entry (. or ./v2) instead",
    );
  });

  it('is turned off by no package but @raider/server', () => {
    const turnedOff: string[] = [];
    for (const group of ['packages', 'apps', 'tools']) {
      for (const name of readdirSync(join(ROOT, group))) {
        const path = join(ROOT, group, name, 'biome.json');
        if (existsSync(path) && readFileSync(path, 'utf8').includes('noRestrictedImports'))
          turnedOff.push(`${group}/${name}`);
      }
    }
    expect(turnedOff).toEqual(['apps/raider-server']);
  });
});
