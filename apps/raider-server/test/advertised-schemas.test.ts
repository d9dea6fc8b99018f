// The advertised contract (issue 36): every tool's listed inputSchema accepts exactly the calls the
// tool answers. Real server processes (dist/cli.js), over HTTP in both eras and over stdio, in both
// name modes and across the families, list their tools; for each, Ajv2020 in strict mode compiles
// the listed schema, validates the corpus of test/valid-calls.ts (every example call of the seeds,
// the READMEs and the tests), and the same calls go to the server, which answers each (never a
// refusal of its arguments); the calls of test/refused-calls.ts are refused by both, the tolerated
// ones answered by the tool alone, and every field a tool requires is a property of its schema.
// The annotations of every tool are pinned here as the server lists them.
//
// Four processes, each reused by every check: two HTTP servers (raider's and Claude Code's names,
// the task tools, claims and messages) that each serve a 2025-11-25 and a 2026-07-28 client, and two
// over stdio for the other families (todo_write in the 2025 era, `todo` under Claude names in the
// 2026 era). `--wait-deadline 1` keeps the one question left open (ask_user's resume) short.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, textOf } from './helpers.js';
import { REFUSED_CALLS, REQUIRED_FIELDS, TOLERATED_CALLS } from './refused-calls.js';
import { type ServerProcess, spawnServer, stopServer } from './team-processes.js';
import {
  CLAIM_CALLS,
  type ExampleCall,
  listedName,
  MESSAGE_CALLS,
  type NameMode,
  QUESTION_CALLS,
  TASK_CALLS,
  TODO_CALLS,
  TODO_WRITE_CALLS,
} from './valid-calls.js';

type Era = 'legacy' | 'modern';
type Json = Record<string, unknown>;
interface ListedTool {
  name: string;
  inputSchema: Json;
  annotations?: Json;
}
interface Answer {
  isError: boolean;
  text: string;
}

/** One connection to a real server: its era and names, the calls it runs, how it lists and calls. */
interface Connection {
  label: string;
  era: Era;
  names: NameMode;
  calls: readonly ExampleCall[];
  person: Person;
  list(): Promise<ListedTool[]>;
  call(name: string, args: Json): Promise<Answer>;
  close(): Promise<unknown>;
}

/** What the person types where a form asks for text. */
const TYPED = 'Friday';

/** The first choice a form property offers, if it offers any. */
function firstChoice(property: Json): unknown {
  const items = property.items as Json | undefined;
  return (
    (property.oneOf as Json[] | undefined)?.[0]?.const ??
    (property.enum as unknown[] | undefined)?.[0] ??
    (items?.enum as unknown[] | undefined)?.[0] ??
    (items?.anyOf as Json[] | undefined)?.[0]?.const
  );
}

/** The person at the keyboard: answers every form at once (the first choice, else TYPED), but a question asked while away. */
class Person {
  readonly away = new Set<string>();
  private readonly held: (() => void)[] = [];

  async answer(message: string, schema: Json | undefined) {
    if (this.away.delete(message)) await new Promise<void>((resolve) => this.held.push(resolve));
    const properties = Object.entries((schema?.properties ?? {}) as Record<string, Json>);
    const choices = properties.filter(([, property]) => firstChoice(property) !== undefined);
    const content: Json = {};
    for (const [key, property] of choices.length ? choices : properties) {
      const choice = firstChoice(property);
      content[key] = property.type === 'array' ? [choice] : (choice ?? TYPED);
    }
    return { action: 'accept' as const, content: content as Record<string, string> };
  }

  /** Answers the questions asked while away. */
  comeBack(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

/** A tool result as an answer; a JSON-RPC error (the call rejected) as an error answer. */
async function answerOf(result: Promise<unknown>): Promise<Answer> {
  try {
    const answer = await result;
    return { isError: (answer as { isError?: boolean }).isError === true, text: textOf(answer) ?? '' };
  } catch (error) {
    return { isError: true, text: `JSON-RPC error: ${(error as Error).message}` };
  }
}

/** A 2025-era (SDK v1) or a 2026-era (SDK v2, pinned) client that answers forms through `person`. */
function clientOf(era: Era, person: Person): V1Client | Client {
  const info = { name: `schemas-${era}`, version: '1.0.0' };
  const capabilities = { elicitation: { form: {} } };
  if (era === 'legacy') {
    const client = new V1Client(info, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, (request) =>
      person.answer(request.params.message, (request.params as { requestedSchema?: Json }).requestedSchema),
    );
    return client;
  }
  const client = new Client(info, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', (request) =>
    person.answer(request.params.message, (request.params as { requestedSchema?: Json }).requestedSchema),
  );
  return client;
}

/** Wraps a connected client as a Connection. */
function connection(spec: Spec, client: V1Client | Client, person: Person): Connection {
  const v1 = client as V1Client;
  return {
    ...spec,
    person,
    list: async () => (await v1.listTools()).tools as ListedTool[],
    call: (name, args) => answerOf(v1.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })),
    close: () => client.close(),
  };
}

/** Connects `client` to the HTTP server at `url` as `agent` on `list`. */
async function connectHttp(client: V1Client | Client, url: string, list: string, agent: string): Promise<void> {
  const requestInit = { headers: { 'X-Raider-List': list, 'X-Raider-Agent': agent } };
  if (client instanceof V1Client) await client.connect(new V1HttpTransport(new URL(url), { requestInit }));
  else await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
}

/**
 * A client of `era` on the HTTP server at `url`, as agent alice on a list of its own, where bob
 * has connected too (only an agent that connected can be sent to).
 */
async function overHttp(url: string, spec: Spec) {
  const list = `schemas-${spec.names}-${spec.era}`;
  const bob = clientOf(spec.era, new Person());
  await connectHttp(bob, url, list, 'bob');
  await (bob as V1Client).listTools();
  const person = new Person();
  const client = clientOf(spec.era, person);
  await connectHttp(client, url, list, 'alice');
  const alice = connection(spec, client, person);
  return { ...alice, close: () => Promise.all([alice.close(), bob.close()]) };
}

/** The built server over stdio with `args`, and a client of `era`. */
async function overStdio(args: string[], spec: Spec) {
  const person = new Person();
  const client = clientOf(spec.era, person);
  const params = {
    command: process.execPath,
    args: [CLI, '--wait-deadline', '1', ...args],
    env: { PATH: process.env.PATH ?? '', RAIDER_LOG_LEVEL: 'error' },
    stderr: 'ignore' as const,
  };
  if (client instanceof V1Client) await client.connect(new V1Stdio(params));
  else await client.connect(new ModernStdio(params));
  return connection(spec, client, person);
}

/** What a connection is before it connects: its era, names and the calls of its families. */
type Spec = Omit<Connection, 'list' | 'call' | 'close' | 'person'>;

/** The calls a connection of `names` runs: its family's, then the questions'. */
const callsOf = (names: NameMode, family: readonly ExampleCall[]) =>
  [...family, ...QUESTION_CALLS].filter((call) => call.only === undefined || call.only === names);
// The task tools with claims and messages (over HTTP, where bob can connect too).
const TASKS = [...TASK_CALLS, ...CLAIM_CALLS, ...MESSAGE_CALLS];
const spec = (label: string, era: Era, names: NameMode, family: readonly ExampleCall[]): Spec => ({
  label,
  era,
  names,
  calls: callsOf(names, family),
});
const HTTP_RAIDER = [
  spec('HTTP, 2025-11-25, raider names', 'legacy', 'raider', TASKS),
  spec('HTTP, 2026-07-28, raider names', 'modern', 'raider', TASKS),
];
const HTTP_CLAUDE = [
  spec('HTTP, 2025-11-25, Claude names', 'legacy', 'claude', TASKS),
  spec('HTTP, 2026-07-28, Claude names', 'modern', 'claude', TASKS),
];
const STDIO_TODO_WRITE = spec('stdio, 2025-11-25, raider names, todo_write', 'legacy', 'raider', TODO_WRITE_CALLS);
const STDIO_TODO = spec('stdio, 2026-07-28, Claude names, todo', 'modern', 'claude', TODO_CALLS);
const SPECS = [...HTTP_RAIDER, ...HTTP_CLAUDE, STDIO_TODO_WRITE, STDIO_TODO];

const TEAM = ['--claims', '--team', '--wait-deadline', '1'];
const servers: ServerProcess[] = [];
const connections = new Map<string, Connection>();
const listings = new Map<string, ListedTool[]>();

beforeAll(async () => {
  const [raider, claude] = await Promise.all([spawnServer(TEAM), spawnServer(['--names', 'claude', ...TEAM])]);
  servers.push(raider, claude);
  const made = await Promise.all([
    ...HTTP_RAIDER.map((s) => overHttp(raider.url, s)),
    ...HTTP_CLAUDE.map((s) => overHttp(claude.url, s)),
    overStdio(['--family', 'todo_write', '--list', 'schemas-todo-write'], STDIO_TODO_WRITE),
    overStdio(['--family', 'todo', '--names', 'claude', '--list', 'schemas-todo'], STDIO_TODO),
  ]);
  for (const one of made) {
    connections.set(one.label, one);
    listings.set(one.label, await one.list());
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([...connections.values()].map((c) => c.close().catch(() => {})));
  await Promise.all(servers.map((server) => stopServer(server)));
});

const validators = new Map<Json, ValidateFunction>();
/**
 * The validator of a listed schema: Ajv2020 (JSON Schema 2020-12) in strict mode, so an unknown
 * keyword, an unknown format, a type left loose or a `required` naming no property throws. The
 * listings need nothing allowed beyond that (no format, no keyword of their own).
 */
function validatorOf(schema: Json): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** The listed tool `tool` (by raider's name) of a connection. */
function listed(label: string, names: NameMode, tool: string): ListedTool | undefined {
  return listings.get(label)?.find((one) => one.name === listedName(tool, names));
}

/** The schema errors of `args` against `tool`'s listed schema, in one line (empty when it passes). */
function schemaErrors(tool: ListedTool, args: unknown): string {
  const validate = validatorOf(tool.inputSchema);
  return validate(args) ? '' : JSON.stringify(validate.errors?.map((e) => `${e.instancePath} ${e.message}`));
}

/** The property a path names in a schema: `a`, or `a[].b` inside the items of array `a`. */
function propertyAt(schema: Json, path: string): Json | undefined {
  let at: Json | undefined = schema;
  for (const step of path.split('.')) {
    const [key, ...arrays] = step.split('[]');
    at = (at?.properties as Record<string, Json> | undefined)?.[key as string];
    for (const _ of arrays) at = at?.items as Json | undefined;
  }
  return at;
}

const STILL_OPEN = /^The question is still open as (ask_\d+);/;
/** How many times a resume may find the question still open before the person's answer is read. */
const RESUME_ROUNDS = 10;

/**
 * Sends a connection's calls in order, each as the person answers, and gives each answer. The
 * question asked while the person is away answers that it is still open; its resume then reads
 * the answer (2025 era: a 2026-era client that answers forms is asked in-band, and no question
 * stays open for it to resume, so both are only validated there).
 */
async function callAll(c: Connection): Promise<{ call: ExampleCall; args: Json; answer: Answer }[]> {
  const answers: { call: ExampleCall; args: Json; answer: Answer }[] = [];
  let open: string | undefined;
  for (const call of c.calls) {
    if ((call.away || call.resumes) && c.era === 'modern') continue;
    const name = listedName(call.tool, c.names);
    if (call.resumes) {
      c.person.comeBack();
      const args = { resume: open };
      for (let round = 0; round < RESUME_ROUNDS; round += 1) {
        const answer = await c.call(name, args);
        answers.push({ call, args, answer });
        if (!STILL_OPEN.test(answer.text)) break;
      }
      continue;
    }
    if (call.away) c.person.away.add(call.args.question as string);
    const answer = await c.call(name, { ...call.args });
    if (call.away) open = STILL_OPEN.exec(answer.text)?.[1];
    answers.push({ call, args: { ...call.args }, answer });
  }
  return answers;
}

/** The annotations every tool is listed with, by raider's name. */
const changes = (destructiveHint: boolean, idempotentHint: boolean) => ({
  readOnlyHint: false,
  destructiveHint,
  idempotentHint,
  openWorldHint: false,
});
const READS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const ANNOTATIONS: Record<string, Json> = {
  task_create: changes(false, false),
  task_update: changes(true, true),
  task_list: READS,
  task_get: READS,
  task_claim: changes(false, false),
  todo_write: changes(true, true),
  todo: changes(true, false),
  // Waits for a person: never run alongside other calls as a read-only one; a retry asks again.
  ask_user: changes(false, false),
  AskUserQuestion: changes(false, false),
  send_message: changes(false, false),
  wait_for_messages: changes(false, false),
};

describe.each(SPECS)('$label', ({ label, names, calls }) => {
  const tools = [...new Set(calls.map((call) => call.tool))];
  const own = <T extends { tool: string; only?: NameMode }>(list: readonly T[]) =>
    list.filter((one) => tools.includes(one.tool) && (one.only === undefined || one.only === names));

  it('lists exactly the corpus tools, each schema a 2020-12 object schema Ajv compiles strictly, no combinator at the top', () => {
    const listing = listings.get(label) ?? [];
    expect(listing.map((tool) => tool.name).sort()).toEqual(tools.map((tool) => listedName(tool, names)).sort());
    for (const tool of listing) {
      expect(tool.inputSchema, tool.name).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        additionalProperties: false,
      });
      for (const combinator of ['oneOf', 'anyOf', 'allOf', 'not', 'if']) {
        expect(tool.inputSchema, `${tool.name}: ${combinator}`).not.toHaveProperty(combinator);
      }
      expect(() => validatorOf(tool.inputSchema), tool.name).not.toThrow();
    }
  });

  it('the listed schema accepts every valid call of the corpus, and each listed property is used by one', () => {
    const failures: string[] = [];
    const used = new Map<string, Set<string>>();
    for (const call of calls) {
      const tool = listed(label, names, call.tool);
      if (!tool) continue;
      const errors = schemaErrors(tool, call.args);
      if (errors) failures.push(`${tool.name} ${JSON.stringify(call.args)} (${call.from}): ${errors}`);
      used.set(tool.name, new Set([...(used.get(tool.name) ?? []), ...Object.keys(call.args)]));
    }
    expect(failures).toEqual([]);
    for (const tool of listings.get(label) ?? []) {
      const properties = Object.keys((tool.inputSchema.properties ?? {}) as Json);
      expect(
        properties.filter((key) => !used.get(tool.name)?.has(key)),
        tool.name,
      ).toEqual([]);
    }
  });

  it('the server answers every valid call, in order, none refused for its arguments', async () => {
    const answers = await callAll(connections.get(label) as Connection);
    const refused = answers.filter(({ answer }) => answer.isError);
    expect(refused.map(({ call, args, answer }) => `${call.tool} ${JSON.stringify(args)}: ${answer.text}`)).toEqual([]);
    expect(answers.length).toBeGreaterThan(0);
    const resumed = answers.filter(({ call }) => call.resumes);
    if (resumed.length) {
      expect(answers.find(({ call }) => call.away)?.answer.text).toMatch(STILL_OPEN);
      expect(resumed.at(-1)?.answer.text).toBe(TYPED);
    }
  });

  it('the calls the tools refuse for what the schema can say are refused by the listed schema too', async () => {
    for (const refusal of own(REFUSED_CALLS)) {
      const tool = listed(label, names, refusal.tool) as ListedTool;
      expect(schemaErrors(tool, refusal.args), `${tool.name} ${JSON.stringify(refusal.args)}`).not.toBe('');
      const answer = await (connections.get(label) as Connection).call(tool.name, { ...refusal.args });
      expect(answer, `${tool.name} ${JSON.stringify(refusal.args)} (${refusal.why})`).toMatchObject({
        isError: true,
        text: expect.stringMatching(new RegExp(`^Error: .*\\b${refusal.names}\\b`)),
      });
    }
  });

  it("Claude Code's repairs are answered by the tools though the schema, Claude Code's, refuses them", async () => {
    for (const tolerated of own(TOLERATED_CALLS)) {
      const tool = listed(label, names, tolerated.tool) as ListedTool;
      expect(schemaErrors(tool, tolerated.args), `${tool.name} ${JSON.stringify(tolerated.args)}`).not.toBe('');
      const answer = await (connections.get(label) as Connection).call(tool.name, { ...tolerated.args });
      expect(answer.isError, `${tool.name} ${JSON.stringify(tolerated.args)}: ${answer.text}`).toBe(false);
    }
  });

  it('every field a tool requires is a property of its listed schema, and the tool refuses a call without it', async () => {
    for (const required of own(REQUIRED_FIELDS)) {
      const tool = listed(label, names, required.tool) as ListedTool;
      const answer = await (connections.get(label) as Connection).call(tool.name, { ...required.without });
      expect(answer.isError, `${tool.name} ${JSON.stringify(required.without)}`).toBe(true);
      for (const field of required.fields) {
        expect(propertyAt(tool.inputSchema, field), `${tool.name}: ${field}`).toBeDefined();
        expect(answer.text, `${tool.name}: ${field}`).toContain(field.split(/\[\]|\./).at(-1));
      }
      expect(schemaErrors(tool, required.without) !== '', `${tool.name} ${JSON.stringify(required.without)}`).toBe(
        required.schemaRefuses,
      );
    }
  });

  it('annotations: read-only only where nothing changes and nobody is waited for', () => {
    for (const tool of tools) {
      expect(listed(label, names, tool)?.annotations, tool).toEqual(ANNOTATIONS[tool]);
    }
  });
});

describe('the question tools as listed', () => {
  it('ask_user lists question, options and resume, described, none required; AskUserQuestion has no resume', () => {
    for (const { label, names } of SPECS) {
      const listing = listings.get(label) ?? [];
      const ask = listing.find((tool) => tool.name === 'ask_user');
      const claude = listing.find((tool) => tool.name === 'AskUserQuestion');
      if (names === 'raider') {
        const properties = ask?.inputSchema.properties as Record<string, Json>;
        expect(Object.keys(properties), label).toEqual(['question', 'options', 'resume']);
        for (const property of Object.values(properties)) expect(property.description).toMatch(/\w{3,}/);
        expect(properties.resume).toMatchObject({ type: 'string', pattern: '^ask_[1-9][0-9]{0,15}$' });
        expect(ask?.inputSchema, label).not.toHaveProperty('required');
      } else {
        expect(Object.keys(claude?.inputSchema.properties as Json), label).toEqual(['questions']);
        expect(claude?.inputSchema.required, label).toEqual(['questions']);
      }
    }
  });

  it('one process lists the same tools to a 2025-11-25 and a 2026-07-28 client', () => {
    for (const [legacy, modern] of [HTTP_RAIDER, HTTP_CLAUDE] as [Spec, Spec][]) {
      expect(listings.get(modern.label)).toEqual(listings.get(legacy.label));
    }
  });
});
