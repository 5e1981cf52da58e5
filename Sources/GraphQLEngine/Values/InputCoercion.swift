/// Input coercion as graphql-js performs it: variable values from JSON (`coerceInputValue`),
/// literals in documents (`valueFromAST`) and enum values, with graphql-js's messages.
enum InputCoercion {
    /// One step of the path to a value inside a variable: a field name or a list index.
    enum PathStep {
        case key(String)
        case index(Int)
    }

    /// graphql-js's `printPathArray`: `.field[0].other`.
    static func printPath(_ path: [PathStep]) -> String {
        path.map { step in
            switch step {
            case .key(let key): "." + key
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }

    // MARK: - Values from JSON (variables)

    /// Coerces a JSON value to `type`; reports each problem through `onError(path, invalid value, message)`.
    /// Returns nil when the value is invalid.
    static func coerce(
        _ value: GraphQLValue, to type: GraphQLType, schema: GraphQLSchema, path: inout [PathStep],
        onError: (_ path: [PathStep], _ value: GraphQLValue, _ message: String) throws(GraphQLError) -> Void
    ) throws(GraphQLError) -> GraphQLValue? {
        switch type {
        case .nonNull(let inner):
            if value.isNull {
                try onError(path, value, "Expected non-nullable type \"\(schema.describe(type))\" not to be null.")
                return nil
            }
            return try coerce(value, to: inner, schema: schema, path: &path, onError: onError)
        case .list(let item):
            if value.isNull { return .null }
            guard case .list(let items) = value else {
                return try coerce(value, to: item, schema: schema, path: &path, onError: onError).map { .list([$0]) }
            }
            var result: [GraphQLValue] = []
            result.reserveCapacity(items.count)
            var valid = true
            for (index, itemValue) in items.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                if let coerced = try coerce(itemValue, to: item, schema: schema, path: &path, onError: onError) {
                    result.append(coerced)
                } else {
                    valid = false
                }
            }
            return valid ? .list(result) : nil
        case .named(let id):
            if value.isNull { return .null }
            let named = schema[id]
            switch named.kind {
            case .inputObject:
                return try coerceInputObject(value, named, schema: schema, path: &path, onError: onError)
            case .enumeration:
                do throws(CoercionError) {
                    return try parseEnumValue(value, named)
                } catch {
                    try onError(path, value, error.message)
                    return nil
                }
            default:
                do throws(CoercionError) {
                    return try named.coercion.parseValue(value)
                } catch {
                    try onError(path, value, error.message)
                    return nil
                }
            }
        }
    }

    private static func coerceInputObject(
        _ value: GraphQLValue, _ type: GraphQLNamedType, schema: GraphQLSchema, path: inout [PathStep],
        onError: (_ path: [PathStep], _ value: GraphQLValue, _ message: String) throws(GraphQLError) -> Void
    ) throws(GraphQLError) -> GraphQLValue? {
        guard case .object(let object) = value else {
            try onError(path, value, "Expected type \"\(type.name)\" to be an object.")
            return nil
        }
        var result = GraphQLObject()
        var valid = true
        for field in type.inputFields {
            guard let fieldValue = object[field.name] else {
                if let literal = field.defaultValue {
                    if let coerced = literalValue(literal, type: field.type, schema: schema, variables: nil) {
                        result.appendUnique(field.name, coerced)
                    }
                } else if field.type.isNonNull {
                    try onError(path, value, "Field \"\(field.name)\" of required type \"\(schema.describe(field.type))\" was not provided.")
                    valid = false
                }
                continue
            }
            path.append(.key(field.name))
            defer { path.removeLast() }
            if let coerced = try coerce(fieldValue, to: field.type, schema: schema, path: &path, onError: onError) {
                result.appendUnique(field.name, coerced)
            } else {
                valid = false
            }
        }
        for key in object.keys where type.inputField(named: key) == nil {
            let suggestions = Suggestions.list(key, type.inputFields.map(\.name))
            try onError(path, value, "Field \"\(key)\" is not defined by type \"\(type.name)\"." + Suggestions.didYouMean(suggestions))
            valid = false
        }
        if type.isOneOf {
            if result.count != 1 {
                try onError(path, value, "Exactly one key must be specified for OneOf type \"\(type.name)\".")
                valid = false
            }
            if let first = result.entries.first, first.value.isNull {
                path.append(.key(first.key))
                defer { path.removeLast() }
                try onError(path, .null, "Field \"\(first.key)\" must be non-null.")
                valid = false
            }
        }
        return valid ? .object(result) : nil
    }

    /// An enum's `parseValue`: the value must be a string naming one of its values.
    static func parseEnumValue(_ value: GraphQLValue, _ type: GraphQLNamedType) throws(CoercionError) -> GraphQLValue {
        guard case .string(let name) = value else {
            let text = value.inspected
            throw CoercionError("Enum \"\(type.name)\" cannot represent non-string value: \(text)." + enumSuggestion(type, text))
        }
        guard type.enumValue(named: name) != nil else {
            throw CoercionError("Value \"\(name)\" does not exist in \"\(type.name)\" enum." + enumSuggestion(type, name))
        }
        return value
    }

    static func enumSuggestion(_ type: GraphQLNamedType, _ input: String) -> String {
        Suggestions.didYouMean(Suggestions.list(input, type.enumValues.map(\.name)), subMessage: "the enum value")
    }

    // MARK: - Values from literals (arguments, defaults)

    /// graphql-js's `valueFromAST`: the value of `literal` as `type`, variables read from `variables`;
    /// nil when it is invalid (validation has normally ruled that out). Missing variables count as absent.
    static func literalValue(_ literal: Value, type: GraphQLType, schema: GraphQLSchema, variables: GraphQLObject?) -> GraphQLValue? {
        if case .variable(let variable) = literal {
            guard let value = variables?[variable.name.value] else { return nil }
            if value.isNull && type.isNonNull { return nil }
            return value
        }
        switch type {
        case .nonNull(let inner):
            if case .null = literal { return nil }
            return literalValue(literal, type: inner, schema: schema, variables: variables)
        case .list(let item):
            if case .null = literal { return .null }
            guard case .list(let list) = literal else {
                return literalValue(literal, type: item, schema: schema, variables: variables).map { .list([$0]) }
            }
            var result: [GraphQLValue] = []
            result.reserveCapacity(list.values.count)
            for node in list.values {
                if isMissingVariable(node, variables) {
                    if item.isNonNull { return nil }
                    result.append(.null)
                    continue
                }
                guard let value = literalValue(node, type: item, schema: schema, variables: variables) else { return nil }
                result.append(value)
            }
            return .list(result)
        case .named(let id):
            if case .null = literal { return .null }
            let named = schema[id]
            switch named.kind {
            case .inputObject:
                guard case .object(let object) = literal else { return nil }
                var result = GraphQLObject()
                for field in named.inputFields {
                    let node = object.fields.first { $0.name.value == field.name }
                    guard let node, !isMissingVariable(node.value, variables) else {
                        if let defaultLiteral = field.defaultValue {
                            if let value = literalValue(defaultLiteral, type: field.type, schema: schema, variables: nil) {
                                result.appendUnique(field.name, value)
                            }
                        } else if field.type.isNonNull {
                            return nil
                        }
                        continue
                    }
                    guard let value = literalValue(node.value, type: field.type, schema: schema, variables: variables) else {
                        return nil
                    }
                    result.appendUnique(field.name, value)
                }
                if named.isOneOf {
                    guard result.count == 1, let only = result.entries.first, !only.value.isNull else { return nil }
                }
                return .object(result)
            case .enumeration:
                guard case .enumValue(let node) = literal, named.enumValue(named: node.value) != nil else { return nil }
                return .string(node.value)
            default:
                do throws(CoercionError) {
                    return try named.coercion.parseLiteral(literal, variables: variables)
                } catch {
                    return nil
                }
            }
        }
    }

    static func isMissingVariable(_ literal: Value, _ variables: GraphQLObject?) -> Bool {
        guard case .variable(let variable) = literal else { return false }
        return variables?[variable.name.value] == nil
    }

    /// graphql-js's `valueFromASTUntyped`: a literal as plain data; nil if a variable it needs is missing.
    static func untypedValue(_ literal: Value, variables: GraphQLObject?) -> GraphQLValue? {
        switch literal {
        case .null: return .null
        case .int(let node): return Int(node.value).map(GraphQLValue.int) ?? .float(Double(node.value) ?? 0)
        case .float(let node): return .float(Double(node.value) ?? 0)
        case .string(let node): return .string(node.value)
        case .boolean(let node): return .bool(node.value)
        case .enumValue(let node): return .string(node.value)
        case .variable(let variable): return variables?[variable.name.value]
        case .list(let list):
            var items: [GraphQLValue] = []
            for node in list.values {
                guard let value = untypedValue(node, variables: variables) else { return nil }
                items.append(value)
            }
            return .list(items)
        case .object(let object):
            var result = GraphQLObject()
            for field in object.fields {
                if let value = untypedValue(field.value, variables: variables) { result[field.name.value] = value }
            }
            return .object(result)
        }
    }
}
