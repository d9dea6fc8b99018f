import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredExports, privateSharedTypes } from './testing.js';

describe('declaredExports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-declared-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return pathToFileURL(join(dir, name));
  };

  it('lists each export with its kind, following re-exports through a chunk, sorted', () => {
    write(
      'chunk.d.ts',
      [
        'export declare class Store {}',
        'export declare function openStore(): Store;',
        'export declare const LIMIT = 3;',
        'export interface StoreOptions { limit?: number }',
        'export type Status = "open" | "done";',
        'export declare enum Mode { A }',
        'export declare const Status: readonly Status[];',
      ].join('\n'),
    );
    const index = write(
      'index.d.ts',
      "export { Store, openStore, LIMIT, Mode, Status } from './chunk.js';\nexport type { StoreOptions } from './chunk.js';\n",
    );
    expect(declaredExports(index)).toEqual([
      'class Store',
      'const LIMIT',
      'const Status',
      'enum Mode',
      'function openStore',
      'interface StoreOptions',
      'type Status',
    ]);
  });

  it('names an export whose declaration cannot be found as unresolved', () => {
    const index = write('broken.d.ts', "export { Gone } from './nowhere.js';\n");
    expect(declaredExports(index)).toEqual(['unresolved Gone']);
  });
});

describe('privateSharedTypes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-private-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return pathToFileURL(join(dir, name));
  };

  it('names what an entry imports from its chunks and does not export, as tsup builds it', () => {
    write(
      'errors-x.d.ts',
      'interface Core {}\ninterface CoreOptions {}\nexport type { Core as a, CoreOptions as b };\n',
    );
    const leaky = write(
      'leaky.d.ts',
      "import { a as Core, b as CoreOptions } from './errors-x.js';\nimport { z } from 'zod';\ndeclare class Tools implements Core { o: CoreOptions; s: z.ZodType }\nexport { Tools };\n",
    );
    expect(privateSharedTypes(leaky)).toEqual(['Core', 'CoreOptions']);
    const named = write(
      'named.d.ts',
      "import { a as Core, b as CoreOptions } from './errors-x.js';\ndeclare class Tools implements Core { o: CoreOptions }\nexport { Core, CoreOptions, Tools };\n",
    );
    expect(privateSharedTypes(named)).toEqual([]);
  });
});
