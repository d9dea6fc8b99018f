// Loaded into the server by the bench and by test/memory-release.test.ts (`node --expose-gc --import
// bench/report-memory.mjs …`), never by the server itself: on SIGUSR2 it collects garbage and prints
// the memory use to stderr, so what the server holds is measured without the garbage its requests
// left.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
});
