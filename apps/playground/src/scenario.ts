/**
 * Scenarios are data: a JSON file of steps `{ tool, args, expect }` run against the real server.
 * This module holds their schema (the source of scenario.schema.json) and the loader, which
 * rejects a malformed file naming the file, the step and the reason.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const isRegExp = (source: string) => {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
};

/** What a step's result must show. */
export const ExpectSchema = z
  .strictObject({
    text: z.string().optional().describe('The result text, exactly.'),
    match: z
      .string()
      .refine(isRegExp, { error: 'expected a regular expression' })
      .optional()
      .describe('A regular expression the result text must match.'),
    isError: z.boolean().optional().describe('Whether the result is an error result.'),
    rpcError: z
      .number()
      .int()
      .optional()
      .describe(
        'The call is refused with a JSON-RPC error of this code instead of a result (an unknown tool: -32602); text and match then apply to its message. Without it a JSON-RPC error fails the step.',
      ),
  })
  .refine((e) => e.text !== undefined || e.match !== undefined || e.isError !== undefined || e.rpcError !== undefined, {
    error: 'expected at least one of text, match, isError, rpcError',
  })
  .refine((e) => e.rpcError === undefined || e.isError === undefined, {
    error: 'expected rpcError or isError, not both (a JSON-RPC error has no result)',
  });

/** How the person answers a question the step asks (an elicitation result). */
export const AnswerSchema = z.strictObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
    .optional()
    .describe('The form fields: ask_user takes answer, or choice and other; AskUserQuestion q1, q1_other, ...'),
});

/** One tool call. */
export const StepSchema = z.strictObject({
  tool: z.string().min(1).describe("The tool's raider name (task_create, todo_write, todo, ask_user, ...)."),
  args: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("Arguments in raider's form; translated for Claude names."),
  answers: z.array(AnswerSchema).optional().describe('Elicitation answers for the questions this step asks, in order.'),
  expect: ExpectSchema,
  note: z.string().optional().describe('Why the step is there.'),
});

/** A scenario file. */
export const ScenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  family: z.enum(['tasks', 'todo_write', 'todo']).describe('The task-list family the server mounts.'),
  modes: z
    .array(z.enum(['raider', 'claude']))
    .min(1)
    .default(['raider', 'claude'])
    .describe("Name modes to run in: raider's names, Claude Code's (tools and arguments translated)."),
  elicitation: z.boolean().default(true).describe('Whether the client can ask its user (form elicitation).'),
  steps: z.array(StepSchema).min(1),
});

/** A scenario after loading (defaults filled in). */
export type Scenario = z.output<typeof ScenarioSchema>;
/** One step of a scenario. */
export type Step = z.output<typeof StepSchema>;
/** One scripted elicitation answer. */
export type Answer = z.output<typeof AnswerSchema>;

/** A file that is not a valid scenario: names the file, where in it, and why. */
export class ScenarioError extends Error {
  readonly code = 'INVALID_SCENARIO';
  constructor(
    readonly file: string,
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${file}: ${where}: ${reason}`);
    this.name = 'ScenarioError';
  }
}

function where(path: PropertyKey[]): string {
  if (path[0] === 'steps' && typeof path[1] === 'number') {
    const rest = path.slice(2).join('.');
    return `step ${path[1] + 1}${rest ? ` (${rest})` : ''}`;
  }
  return path.length ? path.join('.') : 'the file';
}

/** Validates parsed JSON as a scenario. @throws ScenarioError */
export function parseScenario(value: unknown, file: string): Scenario {
  const parsed = ScenarioSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new ScenarioError(file, where(issue.path), issue.message);
  }
  return parsed.data;
}

/** Reads and validates a scenario file. @throws ScenarioError */
export function loadScenario(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScenarioError(file, 'the file', `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(file, 'the file', `is not JSON (${(error as Error).message})`);
  }
  return parseScenario(json, file);
}

/** The JSON Schema of a scenario file (scenario.schema.json). */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ScenarioSchema, { io: 'input' }),
    $id: 'https://raider.tools/scenario.schema.json',
    title: 'raider playground scenario',
  };
}
