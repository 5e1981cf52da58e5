#!/usr/bin/env node
// Finds graphql-js for the reference scripts: GRAPHQL_JS_PATH, then a `graphql` module on the
// usual search path, then Debian's node-graphql. Run directly, it exits 0 when graphql-js loads
// (the Makefile's check), else 3 with a message.
'use strict';

function loadGraphQL() {
  const candidates = [process.env.GRAPHQL_JS_PATH, 'graphql', '/usr/share/nodejs/graphql'].filter(Boolean);
  for (const candidate of candidates) {
    try {
      const graphql = require(candidate);
      loadGraphQL.root = require('path').dirname(require.resolve(candidate));
      return graphql;
    } catch (error) { /* try the next one */ }
  }
  process.stderr.write('graphql-js not found (apt-get install -y node-graphql, or set GRAPHQL_JS_PATH)\n');
  process.exit(3);
}

module.exports = loadGraphQL;
if (require.main === module) {
  process.stdout.write(`graphql-js ${loadGraphQL().version}\n`);
}
