#!/usr/bin/env node
// Full-request speed of graphql-js (Debian's node-graphql): parse + validate + execute +
// JSON.stringify, for comparison with Hearth (Benchmarks/ExecutionBenchmarks). One JSON line per
// case: {"implementation", "name", "usPerRun", "iterations"}. Async cases await each request.
// Usage: graphql-js-execution.js [INPUT_DIR]
'use strict';
const fs = require('fs');
const path = require('path');

const loadGraphQL = require('../reference/load-graphql');
const { graphql, buildSchema, getIntrospectionQuery, version } = loadGraphQL();

const inputDir = process.argv[2] || process.env.HEARTH_BENCH_INPUTS || path.join(__dirname, '..', '..', '..', 'shared', 'bench');

const measure = (name, run) =>
  require('./measure').measure(`graphql-js ${version}`, name, run, { warmup: 20, isAsync: true });

function request(schema, source, rootValue) {
  return async () => JSON.stringify(await graphql({ schema, source, rootValue }));
}

// A minimal DataLoader (the npm package's scheduling: collect loads, dispatch after the current tick).
class Loader {
  constructor(batch) { this.batch = batch; this.queue = []; this.cache = new Map(); }
  load(key) {
    if (this.cache.has(key)) return this.cache.get(key);
    const promise = new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      if (this.queue.length === 1) process.nextTick(() => this.dispatch());
    });
    this.cache.set(key, promise);
    return promise;
  }
  dispatch() {
    const queue = this.queue;
    this.queue = [];
    Promise.resolve(this.batch(queue.map((item) => item.key))).then(
      (values) => queue.forEach((item, index) => item.resolve(values[index])),
      (error) => queue.forEach((item) => item.reject(error)));
  }
}

(async () => {
  const tiny = buildSchema('type Query { a: Int }');
  await measure('typename', request(tiny, '{ __typename }', {}));

  const rowsSchema = buildSchema('type Query { rows: [Row] } type Row { a: Int, b: String, c: Boolean }');
  const rows = (count) => ({ rows: Array.from({ length: count }, (_, i) => ({ a: i, b: `row ${i}`, c: i % 2 === 0 })) });
  await measure('rows-100x3', request(rowsSchema, '{ rows { a b c } }', rows(100)));
  await measure('rows-10000x2', request(rowsSchema, '{ rows { a b } }', rows(10000)));

  const githubPath = path.join(inputDir, 'github-schema.graphql');
  if (fs.existsSync(githubPath)) {
    const github = buildSchema(fs.readFileSync(githubPath, 'utf8'));
    await measure('github-introspection', request(github, getIntrospectionQuery(), {}));
  } else {
    process.stderr.write(`graphql-js bench: skipping github-introspection: ${githubPath} not found\n`);
  }

  const nestedSDL = 'type Query { items: [A] } type A { id: Int, children: [B] } type B { id: Int, children: [C] } type C { id: Int, name: String }';
  const nestedQuery = '{ items { id children { id children { id name } } } }';
  const children = (id) => Array.from({ length: 10 }, (_, i) => ({ id: id * 10 + i, name: 'n' }));
  const withResolvers = (resolve) => {
    const schema = buildSchema(nestedSDL);
    schema.getQueryType().getFields().items.resolve = (source, args, context) => resolve(0, context);
    schema.getType('A').getFields().children.resolve = (source, args, context) => resolve(source.id, context);
    schema.getType('B').getFields().children.resolve = (source, args, context) => resolve(source.id, context);
    return schema;
  };
  const syncSchema = withResolvers((id) => children(id));
  await measure('nested-10x10x10-sync', request(syncSchema, nestedQuery, {}));
  const asyncSchema = withResolvers(async (id) => { await null; return children(id); });
  await measure('nested-10x10x10-async', request(asyncSchema, nestedQuery, {}));
  const loaderSchema = withResolvers((id, context) => context.loader.load(id));
  await measure('nested-10x10x10-dataloader', async () => JSON.stringify(await graphql({
    schema: loaderSchema, source: nestedQuery, rootValue: {},
    contextValue: { loader: new Loader((ids) => ids.map(children)) },
  })));
})();
