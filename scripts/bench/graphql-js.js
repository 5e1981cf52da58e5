#!/usr/bin/env node
// Parse speed of graphql-js (Debian's node-graphql) on the benchmark inputs, for comparison
// with Hearth's parser (Benchmarks/). Prints one JSON line per input:
// {"name", "bytes", "usPerParse", "mbPerSecond", "iterations"}.
// Usage: graphql-js.js [--write-introspection FILE] [INPUT_DIR]
'use strict';
const fs = require('fs');
const path = require('path');

const loadGraphQL = require('../reference/load-graphql');
const { parse, getIntrospectionQuery, version } = loadGraphQL();

const args = process.argv.slice(2);
const writeAt = args.indexOf('--write-introspection');
if (writeAt >= 0) {
  fs.writeFileSync(args[writeAt + 1], getIntrospectionQuery());
  args.splice(writeAt, 2);
}
const inputDir = args[0] || process.env.HEARTH_BENCH_INPUTS || path.join(__dirname, '..', '..', '..', 'shared', 'bench');

const inputs = [{ name: 'introspection', text: getIntrospectionQuery() }];
for (const name of ['kitchen-sink', 'github-schema']) {
  const file = path.join(inputDir, name + '.graphql');
  if (fs.existsSync(file)) inputs.push({ name, text: fs.readFileSync(file, 'utf8') });
  else process.stderr.write(`graphql-js bench: skipping ${name}: ${file} not found\n`);
}

// Same shape as the Swift side: warm up, then run for ~3 s and report the median of batches.
for (const input of inputs) {
  const bytes = Buffer.byteLength(input.text, 'utf8');
  for (let i = 0; i < 200; i++) parse(input.text);
  const batch = Math.max(1, Math.round(2e6 / bytes));
  const samples = [];
  const deadline = process.hrtime.bigint() + 3_000_000_000n;
  let iterations = 0;
  while (process.hrtime.bigint() < deadline) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) parse(input.text);
    samples.push(Number(process.hrtime.bigint() - start) / 1000 / batch);
    iterations += batch;
  }
  samples.sort((a, b) => a - b);
  const usPerParse = samples[Math.floor(samples.length / 2)];
  console.log(JSON.stringify({ implementation: `graphql-js ${version}`, name: input.name, bytes, usPerParse, mbPerSecond: bytes / usPerParse, iterations }));
}
