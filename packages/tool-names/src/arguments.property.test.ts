import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeInput, raiderInput, raiderNames } from './index.js';

// Both names of each translated argument, per raider tool. The round trip is lossless as
// long as an input does not carry both names of one argument (raider's table says so), so generated
// inputs hold at most one of each pair; other keys are random.
const PAIRS: Record<string, [raider: string, claude: string][]> = {
  read_file: [['path', 'file_path']],
  write_file: [['path', 'file_path']],
  edit_file: [['path', 'file_path']],
  multi_edit: [['path', 'file_path']],
  kill_shell: [['shell_id', 'task_id']],
  bash: [],
  bash_output: [['bash_id', 'task_id']],
};
const RESERVED = new Set(['path', 'file_path', 'shell_id', 'task_id', 'bash_id', 'timeout', 'block']);

const tools = fc.constantFrom(...raiderNames(), 'mcp__srv__tool', 'unknown_tool');
const otherKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !RESERVED.has(k));
const value = fc.jsonValue({ maxDepth: 2 });
const others = fc.dictionary(otherKey, value, { maxKeys: 6 });

/** Random raider-form arguments for `tool`: its own names, whole-second timeouts, block given. */
function raiderArgs(tool: string) {
  const pairs = PAIRS[tool] ?? [];
  return fc
    .record(
      {
        base: others,
        named: fc.tuple(...pairs.map(() => fc.string())),
        timeout: fc.option(fc.integer({ min: 0, max: 86_400 }), { nil: undefined }),
        block: fc.boolean(),
      },
      { requiredKeys: ['base', 'named', 'block'] },
    )
    .map(({ base, named, timeout, block }) => {
      const args: Record<string, unknown> = { ...base };
      pairs.forEach(([raider], i) => {
        args[raider] = named[i];
      });
      if (tool in PAIRS && timeout !== undefined && (tool === 'bash' || tool === 'bash_output')) args.timeout = timeout;
      // bash_output without block comes back with block false (what it meant), so give it one.
      if (tool === 'bash_output') args.block = block;
      return args;
    });
}

/** Random Claude-form arguments: its own names, timeouts in whole seconds of milliseconds. */
function claudeArgs(tool: string) {
  const pairs = PAIRS[tool] ?? [];
  return fc
    .record({
      base: others,
      named: fc.tuple(...pairs.map(() => fc.string())),
      timeout: fc.option(fc.integer({ min: 0, max: 86_400 }), { nil: undefined }),
      block: fc.boolean(),
    })
    .map(({ base, named, timeout, block }) => {
      const args: Record<string, unknown> = { ...base };
      pairs.forEach(([, claude], i) => {
        args[claude] = named[i];
      });
      if (timeout !== undefined && (tool === 'bash' || tool === 'bash_output')) args.timeout = timeout * 1000;
      // A TaskOutput input without block comes back to Claude Code with block true: give it one.
      if (tool === 'bash_output') args.block = block;
      return args;
    });
}

// Each property runs its own numRuns; the budget is ~20x what it takes on a quiet machine.
describe('the round trip is lossless (property)', { timeout: 120_000 }, () => {
  it('raiderInput(t, claudeInput(t, args)) equals args', () => {
    fc.assert(
      fc.property(
        tools.chain((tool) => fc.tuple(fc.constant(tool), raiderArgs(tool))),
        ([tool, args]) => {
          const snapshot = structuredClone(args);
          expect(raiderInput(tool, claudeInput(tool, args))).toEqual(args);
          expect(args).toEqual(snapshot);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('claudeInput(t, raiderInput(t, args)) equals args', () => {
    fc.assert(
      fc.property(
        tools.chain((tool) => fc.tuple(fc.constant(tool), claudeArgs(tool))),
        ([tool, args]) => {
          const snapshot = structuredClone(args);
          expect(claudeInput(tool, raiderInput(tool, args))).toEqual(args);
          expect(args).toEqual(snapshot);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('milliseconds round up: raider seconds always cover the Claude timeout', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (ms) => {
        const seconds = raiderInput('bash', { timeout: ms }).timeout as number;
        expect(Number.isInteger(seconds)).toBe(true);
        expect(seconds * 1000).toBeGreaterThanOrEqual(ms);
        expect(seconds * 1000 - ms).toBeLessThan(1000);
      }),
    );
  });
});
