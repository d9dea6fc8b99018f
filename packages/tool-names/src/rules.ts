/**
 * Claude Code names as they reach raider from its surfaces: permission rules and the
 * `tools:` / `disallowedTools:` lists of an agent file.
 */
import { ToolNamesArgumentError } from './errors.js';
import { raiderName } from './table.js';

/** A permission rule such as `Bash(npm run test:*)`, with its tool named the raider way. */
export interface ParsedRule {
  /** The raider tool (or `mcp__*` name) the rule's Claude Code tool stands for. */
  tool: string;
  /** The text between the parentheses; absent for a bare tool name or empty parentheses. */
  specifier?: string;
}

/** The lists an agent file's tool list becomes: known tools in raider names, and the names the table does not know. */
export interface RaiderTools {
  /** raider tool names, first occurrence order, each once. */
  tools: string[];
  /** Entries the table does not know, as given. */
  unknown: string[];
}

// NAME or NAME(SPECIFIER); the specifier may hold parentheses of its own.
const RULE = /^([^\s()]+)(?:\((.*)\))?$/s;

/**
 * Reads a Claude Code permission rule. `parseRule('Bash(npm run test:*)')` ->
 * `{ tool: 'bash', specifier: 'npm run test:*' }`; a bare name (`'Read'`) has no specifier;
 * an unknown tool name, or text that is not a rule, gives `undefined`. Surrounding white
 * space is ignored.
 */
export function parseRule(rule: unknown): ParsedRule | undefined {
  if (typeof rule !== 'string') return undefined;
  const match = RULE.exec(rule.trim());
  if (!match) return undefined;
  const tool = raiderName(match[1]);
  if (tool === undefined) return undefined;
  const specifier = match[2];
  return specifier === undefined || specifier === '' ? { tool } : { tool, specifier };
}

/**
 * Translates an agent file's `tools:` or `disallowedTools:` list into raider tool names.
 * Accepts the list as an array or as the comma-separated string agent files use
 * (`"Read, Grep, Glob"`). Names the table knows (and `mcp__*` names) go to `tools` (each
 * once, in order); the rest go to `unknown` as given.
 *
 * @example raiderTools(['Read', 'Grep', 'mcp__gh__x', 'Bogus'])
 * // { tools: ['read_file', 'grep', 'mcp__gh__x'], unknown: ['Bogus'] }
 * @throws ToolNamesArgumentError (a TypeError) when `list` is neither an array nor a string.
 */
export function raiderTools(list: readonly string[] | string): RaiderTools {
  let names: readonly unknown[];
  if (typeof list === 'string') names = list.split(',');
  else if (Array.isArray(list)) names = list;
  else {
    throw new ToolNamesArgumentError(
      `raiderTools: expected an array of tool names or a comma-separated string, received ${list === null ? 'null' : typeof list}`,
    );
  }
  const tools: string[] = [];
  const unknown: string[] = [];
  const seen = new Set<string>();
  for (const entry of names) {
    const name = typeof entry === 'string' ? entry.trim() : entry;
    if (name === '') continue;
    const tool = raiderName(name);
    if (tool === undefined) unknown.push(String(name));
    else if (!seen.has(tool)) {
      seen.add(tool);
      tools.push(tool);
    }
  }
  return { tools, unknown };
}
