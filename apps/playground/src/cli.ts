#!/usr/bin/env node
/**
 * The playground's commands:
 *   demo                          the whole set end to end (what `pnpm start` runs)
 *   scenario FILE [--http URL] [--era legacy|modern]
 *                                 one scenario file against a spawned server, or a running one,
 *                                 in the 2025 era (legacy, the default) or 2026-07-28 (modern)
 *   import-claude FILE.jsonl [--out FILE]   a scenario from a Claude Code transcript
 *   schema                        the JSON Schema of scenario files
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { importClaudeFile } from './claude-import.js';
import { type DemoResult, report, runDemo } from './demo.js';
import { printer } from './output.js';
import { runScenario, serverArgs } from './runner.js';
import { loadScenario, ScenarioError, scenarioJsonSchema } from './scenario.js';
import { ERAS, type Era } from './server-process.js';

const USAGE = `usage: playground demo
       playground scenario FILE [--http URL] [--era legacy|modern]
       playground import-claude FILE.jsonl [--out FILE]
       playground schema`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out = printer();
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { http: { type: 'string' }, out: { type: 'string' }, era: { type: 'string' } },
  });
  switch (command) {
    case 'demo': {
      const result = await runDemo(out);
      return result.failed ? 1 : 0;
    }
    case 'scenario': {
      const file = positionals[0];
      if (!file) throw new UsageError('scenario: expected a scenario file');
      const era = readEra(values.era);
      const scenario = loadScenario(file);
      const result: DemoResult = { passed: 0, failed: 0, failures: [] };
      for (const mode of scenario.modes) {
        const target = values.http
          ? ({ kind: 'http', url: values.http } as const)
          : ({ kind: 'stdio', args: serverArgs(scenario, mode) } as const);
        // A running server has the family and names it was started with: run only the modes that fit.
        report(await runScenario(scenario, mode, target, era), out, result);
        if (values.http) break;
      }
      out.line(`${result.passed} passed, ${result.failed} failed`);
      return result.failed ? 1 : 0;
    }
    case 'import-claude': {
      const file = positionals[0];
      if (!file) throw new UsageError('import-claude: expected a Claude Code transcript (.jsonl)');
      const scenario = importClaudeFile(file);
      const text = `${JSON.stringify(scenario, null, 2)}\n`;
      if (values.out) {
        writeFileSync(values.out, text);
        out.line(`wrote ${values.out}: ${scenario.steps.length} steps, family ${scenario.family}`);
      } else process.stdout.write(text);
      return 0;
    }
    case 'schema':
      process.stdout.write(`${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
      return 0;
    default:
      throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : 'expected a command');
  }
}

class UsageError extends Error {}

/** The --era flag: legacy (the 2025 era, the default) or modern (2026-07-28). */
function readEra(value: string | undefined): Era {
  if (value === undefined) return 'legacy';
  if ((ERAS as readonly string[]).includes(value)) return value as Era;
  throw new UsageError(`scenario: --era expects legacy or modern, received ${JSON.stringify(value)}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    if (error instanceof UsageError) process.stderr.write(`playground: ${error.message}\n${USAGE}\n`);
    else if (error instanceof ScenarioError) process.stderr.write(`playground: ${error.message}\n`);
    else process.stderr.write(`playground: ${error.stack ?? error.message}\n`);
    process.exit(2);
  },
);
