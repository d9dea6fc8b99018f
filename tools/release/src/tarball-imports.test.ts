import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageOf, undeclaredImports } from './tarball-imports.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function unpacked(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'raider-tarball-imports-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('undeclaredImports', () => {
  it('names an undeclared package and a missing file, not built-ins, declared packages, itself or comments', () => {
    const dir = unpacked({
      'package.json': JSON.stringify({
        name: '@raider/x',
        dependencies: { pg: '^8' },
        peerDependencies: { zod: '^4' },
      }),
      'dist/index.js': [
        "import { a } from './chunk.js';",
        "import { z } from 'zod';",
        "import pg from 'pg';",
        "import { readFileSync } from 'node:fs';",
        "import path from 'path';",
        "import { entry } from '@raider/x/v2';",
        "import { codedErrors } from '@raider/kit';",
        "import { received } from '@raider/kit/received';",
        "export { gone } from './missing.js';",
        "// import { describe } from 'vitest';",
        'const text = "import(\'left-pad\')";',
      ].join('\n'),
      'dist/chunk.js': 'export const a = 1;',
      'dist/index.d.ts': "export type { A } from './chunk.js';\n",
    });
    expect(undeclaredImports(dir)).toEqual([
      'dist/index.js: @raider/kit (@raider/kit is neither a dependency nor a peer)',
      'dist/index.js: @raider/kit/received (@raider/kit is neither a dependency nor a peer)',
      'dist/index.js: ./missing.js (no such file in the package)',
    ]);
  });

  it('packageOf keeps the scope', () => {
    expect(packageOf('@modelcontextprotocol/sdk/server/mcp.js')).toBe('@modelcontextprotocol/sdk');
    expect(packageOf('zod/v4')).toBe('zod');
  });
});
