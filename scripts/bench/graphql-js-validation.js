#!/usr/bin/env node
// Schema building and validation speed of graphql-js (Debian's node-graphql), for comparison
// with Hearth's (Benchmarks/ValidationBenchmarks). Prints one JSON line per case:
// {"implementation", "name", "usPerRun", "iterations"}.
// Usage: graphql-js-validation.js [INPUT_DIR]
'use strict';
const fs = require('fs');
const path = require('path');

const loadGraphQL = require('../reference/load-graphql');
const { parse, buildSchema, validate, validateSchema, getIntrospectionQuery, version } = loadGraphQL();

const inputDir = process.argv[2] || process.env.HEARTH_BENCH_INPUTS || path.join(__dirname, '..', '..', '..', 'shared', 'bench');
const githubPath = path.join(inputDir, 'github-schema.graphql');

function measure(name, run) {
  for (let i = 0; i < 50; i++) run();
  const samples = [];
  const deadline = process.hrtime.bigint() + 3_000_000_000n;
  let iterations = 0;
  let batch = 1;
  while (process.hrtime.bigint() < deadline) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) run();
    const elapsed = Number(process.hrtime.bigint() - start) / 1000;
    samples.push(elapsed / batch);
    iterations += batch;
    if (elapsed < 2000) batch *= 2;
  }
  samples.sort((a, b) => a - b);
  console.log(JSON.stringify({ implementation: `graphql-js ${version}`, name, usPerRun: samples[Math.floor(samples.length / 2)], iterations }));
}

// 250 repeated fields, as graphql-js's own benchmark of OverlappingFieldsCanBeMerged.
const helloSchema = buildSchema('type Query { hello: String }');
const repeated = parse(`{ ${'hello '.repeat(250)}}`);
measure('repeated-fields', () => validate(helloSchema, repeated));

if (fs.existsSync(githubPath)) {
  const sdl = fs.readFileSync(githubPath, 'utf8');
  // buildSchema parses and checks the SDL rules; validateSchema checks the type system.
  measure('build-github-schema', () => validateSchema(buildSchema(sdl)));
  const github = buildSchema(sdl);
  validateSchema(github);
  const introspection = parse(getIntrospectionQuery());
  measure('validate-introspection', () => validate(github, introspection));
  const invalid = parse(fs.readFileSync(path.join(__dirname, 'invalid-query.graphql'), 'utf8'));
  measure('validate-invalid-query', () => validate(github, invalid));
} else {
  process.stderr.write(`graphql-js bench: skipping the GitHub schema cases: ${githubPath} not found\n`);
}
