/// Coerces the variables of an operation and the arguments of fields, as graphql-js's
/// `getVariableValues` and `getArgumentValues` do, with their messages.
enum ArgumentCoercion {
    /// The coerced variables: provided or defaulted ones only (a missing variable stays absent).
    static func variables(
        of operation: OperationDefinition, inputs: GraphQLObject, schema: GraphQLSchema, source: Source, maxErrors: Int = 50
    ) -> (values: GraphQLObject, errors: [GraphQLError]) {
        var errors: [GraphQLError] = []
        var coerced = GraphQLObject()
        func report(_ message: String, at position: Int) throws(GraphQLError) {
            if errors.count >= maxErrors {
                throw GraphQLError(
                    "Too many errors processing variables, error limit reached. Execution aborted.",
                    extensions: [("code", .string("BAD_USER_INPUT"))])
            }
            errors.append(GraphQLError(message, source: source, positions: [position], extensions: [("code", .string("BAD_USER_INPUT"))]))
        }
        do throws(GraphQLError) {
            for definition in operation.variableDefinitions {
                let name = definition.variable.name.value
                let position = definition.range.start
                guard let type = schema.type(of: definition.type), schema.kind(of: type).isInput else {
                    try report(
                        "Variable \"$\(name)\" expected value of type \"\(Printer.print(definition.type))\" which cannot be used as an input type.",
                        at: definition.type.range.start)
                    continue
                }
                guard let value = inputs[name] else {
                    if let defaultValue = definition.defaultValue {
                        if let value = InputCoercion.literalValue(defaultValue, type: type, schema: schema, variables: nil) {
                            coerced.appendUnique(name, value)
                        }
                    } else if type.isNonNull {
                        try report("Variable \"$\(name)\" of required type \"\(schema.describe(type))\" was not provided.", at: position)
                    }
                    continue
                }
                if value.isNull && type.isNonNull {
                    try report("Variable \"$\(name)\" of non-null type \"\(schema.describe(type))\" must not be null.", at: position)
                    continue
                }
                var path: [InputCoercion.PathStep] = []
                let result = try InputCoercion.coerce(value, to: type, schema: schema, path: &path) { path, invalid, message throws(GraphQLError) in
                    var prefix = "Variable \"$\(name)\" got invalid value \(invalid.inspected)"
                    if !path.isEmpty { prefix += " at \"\(name)\(InputCoercion.printPath(path))\"" }
                    try report(prefix + "; " + message, at: position)
                }
                if let result { coerced.appendUnique(name, result) }
            }
        } catch {
            errors.append(error)
        }
        return (coerced, errors)
    }

    /// The coerced arguments of a field or directive node; throws graphql-js's errors, located at the node.
    static func values(
        of definition: GraphQLField, node: Field, variables: GraphQLObject, schema: GraphQLSchema
    ) throws(ArgumentError) -> GraphQLObject {
        try values(definitions: definition.arguments, given: node.arguments, nodeRange: node.range, variables: variables, schema: schema)
    }

    /// An argument problem: its message and the byte position of the node it concerns.
    struct ArgumentError: Error {
        var message: String
        var position: Int
    }

    static func values(
        definitions: [GraphQLInputValue], given: ArraySlice<Argument>, nodeRange: SourceRange, variables: GraphQLObject, schema: GraphQLSchema
    ) throws(ArgumentError) -> GraphQLObject {
        if definitions.isEmpty { return GraphQLObject() }
        var coerced = GraphQLObject()
        /// Uses the argument's default, if it has one; false when it has none.
        func applyDefault(_ definition: GraphQLInputValue) -> Bool {
            guard let literal = definition.defaultValue else { return false }
            if let value = InputCoercion.literalValue(literal, type: definition.type, schema: schema, variables: nil) {
                coerced.appendUnique(definition.name, value)
            }
            return true
        }
        for definition in definitions {
            let name = definition.name
            let type = definition.type
            guard let argument = given.first(where: { $0.name.value == name }) else {
                if !applyDefault(definition), type.isNonNull {
                    throw ArgumentError(
                        message: "Argument \"\(name)\" of required type \"\(schema.describe(type))\" was not provided.",
                        position: nodeRange.start)
                }
                continue
            }
            var isNull = false
            if case .null = argument.value { isNull = true }
            if case .variable(let variable) = argument.value {
                let variableName = variable.name.value
                guard let value = variables[variableName] else {
                    if !applyDefault(definition), type.isNonNull {
                        throw ArgumentError(
                            message: "Argument \"\(name)\" of required type \"\(schema.describe(type))\" "
                                + "was provided the variable \"$\(variableName)\" which was not provided a runtime value.",
                            position: argument.value.range.start)
                    }
                    continue
                }
                isNull = value.isNull
            }
            if isNull && type.isNonNull {
                throw ArgumentError(
                    message: "Argument \"\(name)\" of non-null type \"\(schema.describe(type))\" must not be null.",
                    position: argument.value.range.start)
            }
            guard let value = InputCoercion.literalValue(argument.value, type: type, schema: schema, variables: variables) else {
                throw ArgumentError(
                    message: "Argument \"\(name)\" has invalid value \(Printer.print(argument.value)).",
                    position: argument.value.range.start)
            }
            coerced.appendUnique(name, value)
        }
        return coerced
    }
}
