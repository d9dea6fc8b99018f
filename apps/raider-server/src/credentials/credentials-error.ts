/**
 * The one error of the agent table (issue 38). Its own file so that the table, its file and its
 * database source can all throw it without importing each other.
 */

/**
 * A table of agents that cannot be used: unreadable, malformed, or with an entry that breaks a
 * rule. The message is one line, `<source>: <where>: expected …, received …`, naming the source
 * (a path, `RAIDER_AGENTS`, `raider_agents`) and the entry (`agents[2] ("alice")`), and it never
 * holds a token: a token is shown by its length at most.
 */
export class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsError';
  }
}
