// The commands and client configurations the READMEs tell a user to run: the release test runs
// these, read from the READMEs, so that the lines people copy are the ones that were tried.

/** The part of a Markdown document under `heading` (a whole line such as `## Usage`), to the next heading of its level or above. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`no heading ${JSON.stringify(heading)} in the README`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  const end = lines.findIndex((line, index) => index > start && new RegExp(`^#{1,${level}} `).test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The fenced code blocks of `markdown` in language `language` (```sh, ```json), in order. */
export function codeBlocks(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp(`^\`\`\`${language}\\s*\\n([\\s\\S]*?)^\`\`\`\\s*$`, 'gm');
  for (const match of markdown.matchAll(fence)) blocks.push(match[1] ?? '');
  return blocks;
}

/** A command line split into words; only plain words (no quotes, no variables) are taken. */
export function words(line: string): string[] {
  if (/["'`$\\|&;<>]/.test(line)) throw new Error(`not a plain command line: ${JSON.stringify(line)}`);
  return line.trim().split(/\s+/);
}

/** A shell line without its trailing `# comment`. */
function withoutComment(line: string): string {
  return line.replace(/\s+#.*$/, '').trim();
}

/**
 * The `npx -y @raider/server …` lines of the README's sh blocks, as words, and the commands
 * their comments give (`# stdio: claude mcp add raider -- npx -y @raider/server`).
 */
export function npxCommands(markdown: string): { npx: string[][]; claudeAdd: string[][] } {
  const npx: string[][] = [];
  const claudeAdd: string[][] = [];
  for (const block of codeBlocks(markdown, 'sh')) {
    for (const line of block.split('\n')) {
      const command = withoutComment(line);
      if (command.startsWith('npx -y @raider/server')) npx.push(words(command));
      const comment = /#[^:]*:\s*(claude mcp add .*npx -y @raider\/server.*)$/.exec(line)?.[1];
      if (comment) claudeAdd.push(words(comment));
    }
  }
  return { npx, claudeAdd };
}

/** The `claude mcp add …` lines of the README's sh blocks under `heading`, as words. */
export function claudeAddCommands(markdown: string, heading: string): string[][] {
  return codeBlocks(section(markdown, heading), 'sh')
    .flatMap((block) => block.split('\n'))
    .map(withoutComment)
    .filter((line) => line.startsWith('claude mcp add'))
    .map(words);
}

/** One server of an `mcpServers` block. */
export interface McpServerEntry {
  name: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  type?: string;
  url?: string;
  headers?: Record<string, string>;
}

/** Every server of the `{ "mcpServers": … }` JSON blocks under `heading`. */
export function mcpServerEntries(markdown: string, heading: string): McpServerEntry[] {
  const entries: McpServerEntry[] = [];
  for (const block of codeBlocks(section(markdown, heading), 'json')) {
    const parsed = JSON.parse(block) as { mcpServers?: Record<string, Omit<McpServerEntry, 'name'>> };
    for (const [name, entry] of Object.entries(parsed.mcpServers ?? {})) entries.push({ name, ...entry });
  }
  return entries;
}

/** `${NAME}` in a configuration's string, filled in from `values` as the clients do. */
export function expand(text: string, values: Record<string, string>): string {
  return text.replaceAll(/\$\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${whole} has no value`);
    return value;
  });
}
