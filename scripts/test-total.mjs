// `pnpm test`: every package's tests through turbo (`turbo run test --continue`, so a report names
// every failure), its output passed through as it comes, then ONE total line over every package:
// `1523 passed, 0 failed (10 packages)`. `pnpm test:unit` and `pnpm test:e2e` run the task of that
// name instead (`node scripts/test-total.mjs test:unit`: a first argument naming a test task). The counts are read from the summary line vitest prints
// for each package (`Tests  2 failed | 253 passed (255)`), also when turbo replays a cached run;
// a package that failed before its tests ran (a build error) is named after the total. The exit
// code is turbo's: CI fails when any test (or build) fails.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal colours is the point
const COLOURS = /\u001b\[[0-9;]*m/g;

/**
 * The counts of one line of turbo's output, when it is a package's vitest summary in the turbo task
 * `task` (`@raider/kit:test:       Tests  1 failed | 44 passed | 2 skipped (47)` for `test`,
 * `@raider/kit:test:unit: …` for `test:unit`), else undefined.
 */
export function summaryOf(line, task = 'test') {
  const plain = line.replace(COLOURS, '');
  const prefix = `:${task.replace(/[^\w:-]/g, '')}:`;
  const match = new RegExp(`^(\\S+?)${prefix}\\s+Tests\\s+(.+?)\\s+\\((\\d+)\\)\\s*$`).exec(plain);
  if (!match) return undefined;
  const counts = { package: match[1], passed: 0, failed: 0, skipped: 0 };
  for (const part of match[2].split('|')) {
    const [, number, kind] = /(\d+)\s+(\w+)/.exec(part.trim()) ?? [];
    if (kind === 'passed' || kind === 'failed') counts[kind] += Number(number);
    else if (kind) counts.skipped += Number(number);
  }
  return counts;
}

/** The total line of `summaries` (one per package, the last one wins), and the packages with none. */
export function totalLine(summaries, failedPackages) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const counts of summaries.values()) {
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
  const count = `${summaries.size} ${summaries.size === 1 ? 'package' : 'packages'}`;
  const skippedPart = skipped ? `, ${skipped} skipped` : '';
  const uncounted = [...failedPackages].filter((name) => !summaries.has(name));
  const without = uncounted.length ? `; no test count from ${uncounted.join(', ')} (failed before its tests ran)` : '';
  return `${passed} passed, ${failed} failed${skippedPart} (${count})${without}`;
}

function run() {
  // The workspace's own turbo (a root devDependency), whether or not pnpm put it on PATH.
  const bin = fileURLToPath(new URL('../node_modules/.bin/turbo', import.meta.url));
  const [first, ...rest] = process.argv.slice(2);
  const task = /^test(:[\w-]+)?$/.test(first ?? '') ? first : 'test';
  const passed = task === first ? rest : process.argv.slice(2);
  const turbo = spawn(bin, ['run', task, '--continue', ...passed], {
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  const summaries = new Map();
  const failedPackages = new Set();
  const lines = createInterface({ input: turbo.stdout });
  lines.on('line', (line) => {
    process.stdout.write(`${line}\n`);
    const counts = summaryOf(line, task);
    if (counts) summaries.set(counts.package, counts);
    // turbo's own list of what failed: `Failed:    @raider/server#test` (one or more, comma-separated).
    const failedLine = /^\s*Failed:\s+(.+)$/.exec(line.replace(COLOURS, ''));
    if (failedLine) for (const task of failedLine[1].split(',')) failedPackages.add(task.trim().split('#')[0]);
  });
  turbo.once('error', (error) => {
    console.error(`pnpm test: could not start turbo: ${error.message}`);
    process.exit(1);
  });
  turbo.once('close', (code, signal) => {
    console.log(totalLine(summaries, failedPackages));
    process.exit(code ?? (signal ? 1 : 0));
  });
}

// Run as a script (not when a test imports it for summaryOf and totalLine).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) run();
