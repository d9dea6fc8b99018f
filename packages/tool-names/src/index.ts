export { claudeInput, raiderInput } from './arguments.js';
export { ToolNamesArgumentError } from './errors.js';
export type { ParsedRule, RaiderTools } from './rules.js';
export { parseRule, raiderTools } from './rules.js';
export {
  claudeName,
  claudeNames,
  isMcp,
  olderClaudeNames,
  raiderName,
  raiderNames,
  unmappedClaudeNames,
  unmappedReason,
} from './table.js';
