#!/usr/bin/env node
// Reference oracle for the differential schema and validation tests. Reads one JSON object on
// stdin:
//   { schemas: {name: sdl}, operations: [{schema, document}], sdl: [text], print: [name] }
// and writes what graphql-js makes of it:
//   { version, operations: [errors], sdl: [errors], print: {name: printSchema output},
//     typeNames: {name: [type names in type-map order]} }
// where errors are [{message, locations: [{line, column}]}]. For SDL: the SDL rules' errors if
// any, else validateSchema's. graphql-js before 16.9 lacks @oneOf: it is then declared in the SDL
// (so the schema builds) and the Swift side leaves out the checks that version cannot make.
'use strict';
const path = require('path');
const loadGraphQL = require('./load-graphql');
const graphql = loadGraphQL();
const { parse, buildASTSchema, validate, validateSchema, printSchema, version } = graphql;

function validateSDL(document) {
  // Not exported from the package root in graphql-js 16; load it next to the package.
  return require(path.join(loadGraphQL.root, 'validation/validate.js')).validateSDL(document);
}

const hasOneOf = Boolean(graphql.GraphQLOneOfDirective);
function compatibleSDL(sdl) {
  return hasOneOf || !/@oneOf/.test(sdl) ? sdl : sdl + '\n\ndirective @oneOf on INPUT_OBJECT\n';
}

function plain(errors) {
  return errors.map((error) => ({
    message: error.message,
    locations: (error.locations || []).map(({ line, column }) => ({ line, column })),
  }));
}

function sdlErrors(text) {
  let document;
  try {
    document = parse(compatibleSDL(text));
  } catch (error) {
    return plain([error]);
  }
  const errors = validateSDL(document);
  if (errors.length > 0) return plain(errors);
  return plain(validateSchema(buildASTSchema(document, { assumeValidSDL: true })));
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const request = JSON.parse(input);
  const schemas = {};
  for (const [name, sdl] of Object.entries(request.schemas || {})) {
    schemas[name] = buildASTSchema(parse(compatibleSDL(sdl)));
  }
  const operations = (request.operations || []).map(({ schema, document }) => {
    let ast;
    try {
      ast = parse(document);
    } catch (error) {
      return plain([error]);
    }
    // graphql-js 16 throws instead of reporting when SingleFieldSubscriptionsRule collects a
    // root field whose @skip/@include lacks its required `if`: no verdict (null) for those.
    try {
      return plain(validate(schemas[schema], ast));
    } catch (error) {
      return null;
    }
  });
  const sdl = (request.sdl || []).map(sdlErrors);
  const printed = {};
  for (const name of request.print || []) printed[name] = printSchema(schemas[name]);
  const typeNames = {};
  for (const [name, schema] of Object.entries(schemas)) typeNames[name] = Object.keys(schema.getTypeMap());
  process.stdout.write(JSON.stringify({ version, hasOneOf, operations, sdl, print: printed, typeNames }));
});
