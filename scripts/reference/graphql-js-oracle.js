#!/usr/bin/env node
// Reference oracle for the differential parser test: reads a JSON array of GraphQL documents
// on stdin and writes, for each, what graphql-js makes of it: the printed form when it parses,
// else the first error's message, line and column. Uses Debian's node-graphql package.
'use strict';
const loadGraphQL = require('./load-graphql');
const { parse, print, version } = loadGraphQL();

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const documents = JSON.parse(input);
  const results = documents.map((text) => {
    try {
      return { ok: true, printed: print(parse(text)) };
    } catch (error) {
      const location = (error.locations || [])[0] || {};
      return { ok: false, message: error.message, line: location.line, column: location.column };
    }
  });
  process.stdout.write(JSON.stringify({ version, results }));
});
