#!/usr/bin/env node
// Reference oracle for the differential execution test. Reads one JSON object on stdin:
//   { schemas: {name: sdl}, cases: [{schema, query, data, variables, operationName}] }
// and writes { version, responses: [text] }: each case executed by graphql-js's graphql() with
// the data as root value and the default field resolver (reading keys; abstract types through
// "__typename"), its result serialized with JSON.stringify, as a server would send it.
// graphql-js before 16.9 lacks @oneOf: it is then declared in the SDL so the schema builds.
'use strict';
const loadGraphQL = require('./load-graphql');
const graphql = loadGraphQL();

const hasOneOf = Boolean(graphql.GraphQLOneOfDirective);
function compatibleSDL(sdl) {
  return hasOneOf || !/@oneOf/.test(sdl) ? sdl : sdl + '\n\ndirective @oneOf on INPUT_OBJECT\n';
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', async () => {
  const request = JSON.parse(input);
  const schemas = {};
  for (const [name, sdl] of Object.entries(request.schemas)) {
    schemas[name] = graphql.buildSchema(compatibleSDL(sdl));
  }
  const responses = [];
  for (const item of request.cases) {
    const result = await graphql.graphql({
      schema: schemas[item.schema],
      source: item.query,
      rootValue: item.data,
      variableValues: item.variables,
      operationName: item.operationName,
    });
    responses.push(JSON.stringify(result));
  }
  process.stdout.write(JSON.stringify({ version: graphql.version, responses }));
});
