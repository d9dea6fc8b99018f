/**
 * Shared tests for every raider package: its coded errors and its intentional public surface.
 * Imported by the packages' own test files (never by their src), so it is never bundled.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { markError } from './coded-error.js';

/** A class made by `codedErrors`: a constructor with a static `isInstance`. */
export interface CodedErrorClass {
  // biome-ignore lint/suspicious/noExplicitAny: any error class, whatever its constructor takes.
  new (...args: any[]): Error;
  readonly name: string;
  isInstance(error: unknown): boolean;
}

/**
 * Registers the tests every coded error class passes: `throwIt` (a real call of the package that
 * fails) throws an instance with `code`; `isInstance` recognises it, refuses a plain Error, and
 * recognises an error marked by another copy of `packageName` (no shared class).
 */
export function describeCodedError(
  ErrorClass: CodedErrorClass,
  options: { packageName: string; code: string; throwIt: () => unknown },
): void {
  describe(`${ErrorClass.name}`, () => {
    it('is thrown with its stable code and recognised by isInstance', () => {
      let thrown: unknown;
      try {
        options.throwIt();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ErrorClass);
      expect((thrown as { code: unknown }).code).toBe(options.code);
      expect((thrown as Error).name).toBe(ErrorClass.name);
      expect(ErrorClass.isInstance(thrown)).toBe(true);
      expect(ErrorClass.isInstance(new Error('plain'))).toBe(false);
    });

    it('isInstance recognises one from another copy of the package, and no other code', () => {
      expect(ErrorClass.isInstance(markError(new Error('elsewhere'), options.packageName, options.code))).toBe(true);
      expect(ErrorClass.isInstance(markError(new Error('elsewhere'), options.packageName, 'OTHER_CODE'))).toBe(false);
      expect(ErrorClass.isInstance(markError(new Error('elsewhere'), '@raider/other', options.code))).toBe(false);
    });
  });
}

/**
 * Registers the test that pins a package's public surface: `api` (its index module) exports
 * exactly `names`. A new export fails it until it is added on purpose (and to the README).
 */
export function describeExports(api: Record<string, unknown>, names: readonly string[]): void {
  describe('the package exports', () => {
    it('exactly the documented names', () => {
      expect(Object.keys(api).sort()).toEqual([...names].sort());
    });
  });
}

/** The kinds a declaration exported from a `.d.ts` is listed under, in `'<kind> <Name>'`. */
const declarationKinds: readonly (readonly [ts.SymbolFlags, string])[] = [
  [ts.SymbolFlags.Class, 'class'],
  [ts.SymbolFlags.Function, 'function'],
  [ts.SymbolFlags.Variable, 'const'],
  [ts.SymbolFlags.Enum, 'enum'],
  [ts.SymbolFlags.Interface, 'interface'],
  [ts.SymbolFlags.TypeAlias, 'type'],
  [ts.SymbolFlags.Module, 'namespace'],
];

/**
 * What the declaration file at `dts` exports, one `'<kind> <Name>'` each (kind: class, function,
 * const, enum, interface, type or namespace; a name declared twice, as a const and a type, is
 * listed once for each), sorted. Re-exports are followed to the declaration, through the chunks
 * tsup writes; a name whose declaration cannot be found is listed as `'unresolved <Name>'`.
 */
export function declaredExports(dts: URL): string[] {
  const path = fileURLToPath(dts);
  const program = ts.createProgram([path], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) return [];
  const listed: string[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const kinds = declarationKinds.filter(([flag]) => target.flags & flag).map(([, kind]) => kind);
    for (const kind of kinds.length > 0 ? kinds : ['unresolved']) listed.push(`${kind} ${exported.name}`);
  }
  return listed.sort();
}

/**
 * The names the declaration file at `dts` imports from the package's own shared chunks (`./…`) and
 * does not export: types a user's compiler meets in the entry's declarations but cannot name, the
 * cause of a consumer's TS2742 (`The inferred type of … cannot be named`) and of the build's
 * `[plugin dts] … private shared type exports with no public re-export` warning. Sorted; empty
 * when every such type has a public home.
 */
export function privateSharedTypes(dts: URL): string[] {
  const path = fileURLToPath(dts);
  const source = ts.createSourceFile(path, ts.sys.readFile(path) ?? '', ts.ScriptTarget.Latest);
  const imported = new Set<string>();
  const exported = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (!statement.moduleSpecifier.text.startsWith('.')) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) imported.add(element.name.text);
    }
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) exported.add((element.propertyName ?? element.name).text);
    }
  }
  return [...imported].filter((name) => !exported.has(name)).sort();
}

/**
 * Registers the test that pins the types of a package's public surface: the built declaration file
 * at `dts` (for example `new URL('../dist/index.d.ts', import.meta.url)`) exports exactly
 * `declarations`, each `'<kind> <Name>'` as `declaredExports` lists them. A type added to, dropped
 * from or changed in kind in the barrel fails it until it is changed here on purpose (and in the
 * README). A second test fails when the entry uses a type of a shared chunk it does not export
 * (`privateSharedTypes`). It reads `dist/`, so the package is built first: `pnpm test` (turbo) does, and so does
 * every package's vitest global setup when `dist/` is missing.
 */
export function describeDeclaredExports(dts: URL, declarations: readonly string[]): void {
  describe(`the declarations of ${dts.pathname.split('/').slice(-2).join('/')}`, () => {
    it('are exactly the documented ones, each of its kind', () => {
      if (!existsSync(dts)) {
        throw new Error(`${fileURLToPath(dts)} is missing: build the package first (pnpm --filter <package> build).`);
      }
      // Read from dist/: a build older than the barrel fails this too (rebuild, then look again).
      const built = `${fileURLToPath(dts)} (as built: after changing the barrel, build the package again)`;
      expect(declaredExports(dts), built).toEqual([...declarations].sort());
    });
    it('name every type they use from the shared chunks (no TS2742 for a consumer)', () => {
      expect(privateSharedTypes(dts), `${fileURLToPath(dts)}: export these types from the entry`).toEqual([]);
    });
  });
}
