#!/usr/bin/env node
// Reference oracle for the differential parser test: reads a JSON array of GraphQL documents
// on stdin and writes, for each, what graphql-js makes of it: the printed form when it parses,
// else the first error's message, line and column. Uses Debian's node-graphql package.
'use strict';
function loadGraphQL() {
  const candidates = [process.env.GRAPHQL_JS_PATH, 'graphql', '/usr/share/nodejs/graphql'].filter(Boolean);
  for (const candidate of candidates) {
    try { return require(candidate); } catch (error) { /* try the next one */ }
  }
  process.stderr.write('graphql-js not found (apt-get install -y node-graphql, or set GRAPHQL_JS_PATH)\n');
  process.exit(3);
}
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
