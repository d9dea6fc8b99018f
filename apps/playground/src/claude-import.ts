/**
 * Converts a Claude Code transcript (JSONL) into a scenario: its TaskCreate, TaskUpdate,
 * TaskList, TaskGet, TodoWrite and AskUserQuestion tool uses become steps with raider's tools and
 * arguments (@raider/tool-names), the expected answers taken from the tool results.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { raiderInput, raiderName } from '@raider/tool-names';
import { type Answer, parseScenario, type Scenario } from './scenario.js';

const IMPORTED = new Set(['TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TodoWrite', 'AskUserQuestion']);

interface ToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

interface ToolResult {
  text: string;
  isError: boolean;
}

type Block = {
  type?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  text?: string;
};

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block: Block) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : ''))
      .join('\n');
  }
  return '';
}

/** The person's answers to AskUserQuestion as the elicitation form raider asks in. */
function answersFor(input: Record<string, unknown>, text: string): Answer[] {
  const questions = Array.isArray(input.questions) ? (input.questions as Record<string, unknown>[]) : [];
  const content: Record<string, string | string[]> = {};
  questions.forEach((q, i) => {
    const quoted = JSON.stringify(String(q.question)).slice(1, -1);
    const match = new RegExp(`"${quoted.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"="([^"]*)"`).exec(text);
    if (!match) return;
    const answer = match[1] as string;
    const labels = Array.isArray(q.options) ? (q.options as { label?: string }[]).map((o) => String(o.label)) : [];
    if (q.multiSelect === true) {
      const picked = answer.split(', ');
      if (picked.every((p) => labels.includes(p))) content[`q${i + 1}`] = picked;
      else content[`q${i + 1}_other`] = answer;
    } else if (labels.includes(answer)) content[`q${i + 1}`] = answer;
    else content[`q${i + 1}_other`] = answer;
  });
  return [{ action: 'accept', content }];
}

/**
 * The scenario a transcript makes. Throws an Error naming the line for a line that is not JSON.
 */
export function importClaudeTranscript(jsonl: string, name: string): Scenario {
  const uses: ToolUse[] = [];
  const results = new Map<string, ToolResult>();
  jsonl.split('\n').forEach((line, n) => {
    if (!line.trim()) return;
    let entry: { message?: { content?: unknown } };
    try {
      entry = JSON.parse(line);
    } catch {
      throw new Error(`${name}: line ${n + 1} is not JSON`);
    }
    const content = entry.message?.content;
    if (!Array.isArray(content)) return;
    for (const block of content as Block[]) {
      if (block?.type === 'tool_use' && typeof block.name === 'string' && IMPORTED.has(block.name)) {
        uses.push({ id: String(block.id), name: block.name, input: (block.input ?? {}) as Record<string, unknown> });
      } else if (block?.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        results.set(block.tool_use_id, { text: resultText(block.content), isError: block.is_error === true });
      }
    }
  });
  const family = uses.some((u) => u.name === 'TodoWrite') ? 'todo_write' : 'tasks';
  const asks = uses.some((u) => u.name === 'AskUserQuestion');
  const steps = uses
    .filter((use) => results.has(use.id))
    .map((use) => {
      const tool = raiderName(use.name) as string;
      const result = results.get(use.id) as ToolResult;
      const step: Scenario['steps'][number] = {
        tool,
        args: raiderInput(tool, use.input),
        // Claude Code answers TodoWrite with a fixed sentence where raider renders the list.
        expect: use.name === 'TodoWrite' ? { isError: result.isError } : { text: result.text, isError: result.isError },
        note: `${use.name} ${use.id}`,
      };
      if (use.name === 'AskUserQuestion') step.answers = answersFor(use.input, result.text);
      return step;
    });
  return parseScenario(
    {
      $schema: '../scenario.schema.json',
      name,
      description: `Imported from the Claude Code transcript ${name}.jsonl`,
      family,
      // AskUserQuestion's shape exists only under Claude Code's names.
      modes: asks ? ['claude'] : ['raider', 'claude'],
      steps,
    },
    `${name} (imported)`,
  );
}

/** Reads a transcript file and converts it. */
export function importClaudeFile(file: string): Scenario {
  return importClaudeTranscript(readFileSync(file, 'utf8'), basename(file).replace(/\.jsonl$/, ''));
}
