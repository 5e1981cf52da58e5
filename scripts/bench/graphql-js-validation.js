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

const measure = (name, run) => require('./measure').measure(`graphql-js ${version}`, name, run);

(async () => {
  // 250 repeated fields, as graphql-js's own benchmark of OverlappingFieldsCanBeMerged.
  const helloSchema = buildSchema('type Query { hello: String }');
  const repeated = parse(`{ ${'hello '.repeat(250)}}`);
  await measure('repeated-fields', () => validate(helloSchema, repeated));

  if (fs.existsSync(githubPath)) {
    const sdl = fs.readFileSync(githubPath, 'utf8');
    // buildSchema parses and checks the SDL rules; validateSchema checks the type system.
    await measure('build-github-schema', () => validateSchema(buildSchema(sdl)));
    const github = buildSchema(sdl);
    validateSchema(github);
    const introspection = parse(getIntrospectionQuery());
    await measure('validate-introspection', () => validate(github, introspection));
    const invalid = parse(fs.readFileSync(path.join(__dirname, 'invalid-query.graphql'), 'utf8'));
    await measure('validate-invalid-query', () => validate(github, invalid));
  } else {
    process.stderr.write(`graphql-js bench: skipping the GitHub schema cases: ${githubPath} not found\n`);
  }
})();
