/**
 * The question tool as a 2026-era server registers it. Such a server is made per request over
 * HTTP, and mounting the question tool was most of its making (AskTools turns the tool's input
 * schema into JSON Schema at every mount). What it registers is the same for every 2026-era server
 * (its answerer reads the call's envelope, and what it reads of a server it reads of the one
 * serving the call), so it is recorded once and registered on each.
 */
import type { PipelineTool, ToolPipeline } from '../../conversation/call-pipeline.js';

/** The 2026-era question tool, recorded once: see the module's comment. */
export class ModernQuestionTool {
  private recorded: PipelineTool[] | undefined;

  /** `record` makes the tools (once, at the first server). */
  constructor(private readonly record: () => PipelineTool[]) {}

  /** Registers the question tool through `tools`, a 2026-era server's call pipeline. */
  registerOn(tools: Pick<ToolPipeline, 'register'>): void {
    this.recorded ??= this.record();
    for (const tool of this.recorded) tools.register(tool);
  }
}
