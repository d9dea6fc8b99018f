// Prints the table of Claude Code tool names and the raider tools they stand for,
// from the built package (what `pnpm start` shows until the demo lands).
import { claudeName, claudeNames, raiderName } from '../dist/index.js';

const rows = claudeNames().map((name) => {
  const tool = raiderName(name);
  const current = claudeName(tool) === name ? '' : `  (now ${claudeName(tool)})`;
  return `${name.padEnd(16)} -> ${tool}${current}`;
});
console.log('Claude Code tool   raider tool');
console.log(rows.join('\n'));
console.log(`\n${rows.length} Claude Code names, mcp__server__tool names pass through unchanged.`);
