// Timing loop shared by the graphql-js benchmark scripts (the same shape as the Swift side):
// warm up, then run for ~3 s in batches that double until one takes 2 ms, and print the median
// µs per run as a JSON line {"implementation", "name", "usPerRun", "iterations"}.
'use strict';

// run() is called `warmup` times first; with isAsync, each call is awaited.
async function measure(implementation, name, run, { warmup = 50, isAsync = false } = {}) {
  const runBatch = isAsync
    ? async (count) => { for (let i = 0; i < count; i++) await run(); }
    : (count) => { for (let i = 0; i < count; i++) run(); };
  await runBatch(warmup);
  const samples = [];
  const deadline = process.hrtime.bigint() + 3_000_000_000n;
  let iterations = 0;
  let batch = 1;
  while (process.hrtime.bigint() < deadline) {
    const start = process.hrtime.bigint();
    await runBatch(batch);
    const elapsed = Number(process.hrtime.bigint() - start) / 1000;
    samples.push(elapsed / batch);
    iterations += batch;
    if (elapsed < 2000) batch *= 2;
  }
  samples.sort((a, b) => a - b);
  console.log(JSON.stringify({ implementation, name, usPerRun: samples[Math.floor(samples.length / 2)], iterations }));
}

module.exports = { measure };
