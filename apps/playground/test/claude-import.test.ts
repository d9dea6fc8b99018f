import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importClaudeFile, importClaudeTranscript } from '../src/claude-import.js';
import { CLAUDE_FIXTURE } from '../src/demo.js';

/** A record of a Claude Code session file, as far as the test reads it. */
interface SessionRecord {
  type: string;
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  message: {
    role: string;
    id?: string;
    content: string | { type: string; id?: string; tool_use_id?: string }[];
  };
}

describe('the transcript fixture', () => {
  it("is in Claude Code's session format: chained records, its id shapes, tool uses and results in blocks", () => {
    const records = readFileSync(CLAUDE_FIXTURE, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as SessionRecord);
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const sessionId = records[0]?.sessionId;
    expect(sessionId).toMatch(UUID);
    let parent: string | null = null;
    const uses = new Set<string>();
    for (const record of records) {
      expect(['user', 'assistant']).toContain(record.type);
      expect(record.sessionId).toBe(sessionId);
      expect(record.uuid).toMatch(UUID);
      expect(record.parentUuid).toBe(parent);
      expect(record.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(record.message.role).toBe(record.type);
      parent = record.uuid;
      if (record.type === 'assistant') {
        expect(record.message.id).toMatch(/^msg_01[A-Za-z0-9]{22}$/);
        for (const block of record.message.content as { type: string; id?: string }[]) {
          if (block.type !== 'tool_use') continue;
          expect(block.id).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
          uses.add(String(block.id));
        }
      } else if (Array.isArray(record.message.content)) {
        for (const block of record.message.content) {
          expect(block.type).toBe('tool_result');
          expect(uses.has(String(block.tool_use_id))).toBe(true);
        }
      }
    }
    expect(uses.size).toBe(9);
  });
});

describe('import-claude', () => {
  it('turns the fixture transcript into a scenario of raider tools with the expected answers', () => {
    const scenario = importClaudeFile(CLAUDE_FIXTURE);
    expect(scenario.name).toBe('claude-session');
    expect(scenario.family).toBe('tasks');
    expect(scenario.modes).toEqual(['claude']);
    expect(scenario.steps.map((s) => s.tool)).toEqual([
      'task_create',
      'task_create',
      'task_update',
      'ask_user',
      'task_update',
      'task_list',
      'task_get',
      'task_update',
    ]);
    expect(scenario.steps[0]).toEqual({
      tool: 'task_create',
      args: {
        subject: 'Reproduce the 500',
        description: 'Submit a wrong password and capture the stack trace',
        activeForm: 'Reproducing the 500',
      },
      expect: { text: 'Task #1 created successfully: Reproduce the 500', isError: false },
      note: 'TaskCreate toolu_01b2ouwmHqOrg6ymGS4khiby',
    });
    expect(scenario.steps[1]?.expect.text).toBe('Task #2 created successfully: Fix the error handler');
    expect(scenario.steps[3]?.answers).toEqual([{ action: 'accept', content: { q1: '401' } }]);
    expect(scenario.steps[5]?.expect.text).toBe(
      '#1 [in_progress] Reproduce the 500\n#2 [pending] Fix the error handler [blocked by #1]',
    );
  });

  it('leaves out other tools (Read) and tool uses without a result', () => {
    const scenario = importClaudeFile(CLAUDE_FIXTURE);
    expect(scenario.steps.some((s) => s.note?.startsWith('Read'))).toBe(false);
    const partial = importClaudeTranscript(
      [
        '{"message":{"content":[{"type":"tool_use","id":"t1","name":"TaskList","input":{}}]}}',
        '{"message":{"content":[{"type":"tool_use","id":"t2","name":"TaskList","input":{}}]}}',
        '{"message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"No tasks found"}]}}',
      ].join('\n'),
      'partial',
    );
    expect(partial.steps).toHaveLength(1);
    expect(partial.modes).toEqual(['raider', 'claude']);
  });

  it('a TodoWrite session becomes a todo_write scenario that checks only the error flag', () => {
    const scenario = importClaudeTranscript(
      [
        '{"message":{"content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"A","status":"pending","activeForm":"Doing A"}]}}]}}',
        '{"message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"Todos have been modified successfully."}]}}',
      ].join('\n'),
      'todos',
    );
    expect(scenario.family).toBe('todo_write');
    expect(scenario.steps[0]?.expect).toEqual({ isError: false });
  });

  it('names a line that is not JSON', () => {
    expect(() => importClaudeTranscript('{}\nnot json', 'broken')).toThrow('broken: line 2 is not JSON');
  });
});
