// Prints the table of Claude Code tool names and the raider tools they stand for,
// from the built package (what `pnpm start` shows until the demo lands).
import { claudeName, claudeNames, olderClaudeNames, raiderName, unmappedClaudeNames } from '../dist/index.js';

const older = new Set(olderClaudeNames());
const rows = claudeNames().map((name) => {
  const tool = raiderName(name);
  // An older name says so; where the way back answers another name, that name is shown too.
  const notes = [];
  if (older.has(name)) notes.push('older name');
  if (claudeName(tool) !== name) notes.push(`way back: ${claudeName(tool)}`);
  return `${name.padEnd(16)} -> ${tool}${notes.length ? `  (${notes.join(', ')})` : ''}`;
});
console.log('Claude Code tool   raider tool');
console.log(rows.join('\n'));
console.log(
  `\nLeft unmapped on purpose (unmappedReason says why): ${unmappedClaudeNames().join(', ')}, self_hosted_runner_*.`,
);
console.log(`\n${rows.length} Claude Code names, mcp__server__tool names pass through unchanged.`);
