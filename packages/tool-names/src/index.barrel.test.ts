// The public surface is intentional: every name the package exports is one its README documents,
// and every declaration its built index.d.ts exports (read as a user's compiler reads it) is pinned
// here. A new export or type fails this test until it is added here on purpose (and to the README).
import { describeDeclaredExports, describeExports } from '@raider/kit/testing';
import * as api from './index.js';

describeExports(api, [
  'ToolNamesArgumentError',
  'claudeInput',
  'claudeName',
  'claudeNames',
  'isMcp',
  'olderClaudeNames',
  'parseRule',
  'raiderInput',
  'raiderName',
  'raiderNames',
  'raiderTools',
  'unmappedClaudeNames',
  'unmappedReason',
]);

describeDeclaredExports(new URL('../dist/index.d.ts', import.meta.url), [
  'class ToolNamesArgumentError',
  'function claudeInput',
  'function claudeName',
  'function claudeNames',
  'function isMcp',
  'function olderClaudeNames',
  'function parseRule',
  'function raiderInput',
  'function raiderName',
  'function raiderNames',
  'function raiderTools',
  'function unmappedClaudeNames',
  'function unmappedReason',
  'interface ParsedRule',
  'interface RaiderTools',
]);
