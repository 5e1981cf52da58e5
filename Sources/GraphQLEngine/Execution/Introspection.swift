/// The resolvers of the introspection types (`__Schema`, `__Type`, …), built into every executable
/// schema. They answer synchronously from the immutable schema, as graphql-js's do.
enum Introspection {
    /// A type as `__Type` presents it: named, or a list / non-null wrapper.
    struct TypeValue: Sendable { let type: GraphQLType }
    struct FieldValue: Sendable { let field: GraphQLField }
    struct InputValue: Sendable { let value: GraphQLInputValue }
    struct EnumValue: Sendable { let value: GraphQLEnumValue }
    struct DirectiveValue: Sendable { let directive: GraphQLDirective }
    struct SchemaValue: Sendable {}

    /// Every field of the introspection types.
    enum Field: Sendable {
        case schemaDescription, schemaTypes, schemaQueryType, schemaMutationType, schemaSubscriptionType, schemaDirectives
        case typeKind, typeName, typeDescription, typeSpecifiedByURL, typeFields, typeInterfaces, typePossibleTypes
        case typeEnumValues, typeInputFields, typeOfType, typeIsOneOf
        case fieldName, fieldDescription, fieldArgs, fieldType, fieldIsDeprecated, fieldDeprecationReason
        case inputName, inputDescription, inputType, inputDefaultValue, inputIsDeprecated, inputDeprecationReason
        case enumName, enumDescription, enumIsDeprecated, enumDeprecationReason
        case directiveName, directiveDescription, directiveIsRepeatable, directiveLocations, directiveArgs

        init?(type: String, field: String) {
            guard type.hasPrefix("__"), let found = Self.table[type + "." + field] else { return nil }
            self = found
        }

        private static let table: [String: Field] = [
            "__Schema.description": .schemaDescription, "__Schema.types": .schemaTypes,
            "__Schema.queryType": .schemaQueryType, "__Schema.mutationType": .schemaMutationType,
            "__Schema.subscriptionType": .schemaSubscriptionType, "__Schema.directives": .schemaDirectives,
            "__Type.kind": .typeKind, "__Type.name": .typeName, "__Type.description": .typeDescription,
            "__Type.specifiedByURL": .typeSpecifiedByURL, "__Type.fields": .typeFields,
            "__Type.interfaces": .typeInterfaces, "__Type.possibleTypes": .typePossibleTypes,
            "__Type.enumValues": .typeEnumValues, "__Type.inputFields": .typeInputFields,
            "__Type.ofType": .typeOfType, "__Type.isOneOf": .typeIsOneOf,
            "__Field.name": .fieldName, "__Field.description": .fieldDescription, "__Field.args": .fieldArgs,
            "__Field.type": .fieldType, "__Field.isDeprecated": .fieldIsDeprecated,
            "__Field.deprecationReason": .fieldDeprecationReason,
            "__InputValue.name": .inputName, "__InputValue.description": .inputDescription,
            "__InputValue.type": .inputType, "__InputValue.defaultValue": .inputDefaultValue,
            "__InputValue.isDeprecated": .inputIsDeprecated, "__InputValue.deprecationReason": .inputDeprecationReason,
            "__EnumValue.name": .enumName, "__EnumValue.description": .enumDescription,
            "__EnumValue.isDeprecated": .enumIsDeprecated, "__EnumValue.deprecationReason": .enumDeprecationReason,
            "__Directive.name": .directiveName, "__Directive.description": .directiveDescription,
            "__Directive.isRepeatable": .directiveIsRepeatable, "__Directive.locations": .directiveLocations,
            "__Directive.args": .directiveArgs,
        ]
    }

    static func optionalString(_ string: String?) -> Resolved {
        guard let string else { return .null }
        return .value(.string(string))
    }

    static func type(_ id: TypeID?) -> Resolved {
        guard let id else { return .null }
        return .object(TypeValue(type: .named(id)))
    }

    static func includeDeprecated(_ arguments: GraphQLObject) -> Bool {
        if case .bool(true) = arguments["includeDeprecated"] { return true }
        return false
    }

    static func inputValues(_ values: [GraphQLInputValue], _ arguments: GraphQLObject) -> Resolved {
        let all = includeDeprecated(arguments)
        return .list(values.compactMap { value in
            all || value.deprecationReason == nil ? .object(InputValue(value: value)) : nil
        })
    }

    /// The introspection host value a source holds: each is put in `.object` by this type
    /// itself (never in a host list's element), so one cast reads it.
    @inline(__always)
    private static func host<Value>(_ source: Resolved, as type: Value.Type) -> Value? {
        guard case .object(let value) = source else { return nil }
        return value as? Value
    }

    /// Resolves an introspection field of `source` straight from the schema: no ``FieldInput`` is
    /// made, as introspection needs only the source, the field's arguments and the schema.
    static func resolve(_ field: Field, source: Resolved, arguments: GraphQLObject, schema: GraphQLSchema) -> Resolved {
        switch field {
        case .schemaDescription: return optionalString(schema.description)
        case .schemaTypes: return .list(schema.types.map { .object(TypeValue(type: .named($0.id))) })
        case .schemaQueryType: return type(schema.queryType)
        case .schemaMutationType: return type(schema.mutationType)
        case .schemaSubscriptionType: return type(schema.subscriptionType)
        case .schemaDirectives: return .list(schema.directives.map { .object(DirectiveValue(directive: $0)) })
        case .fieldName, .fieldDescription, .fieldArgs, .fieldType, .fieldIsDeprecated, .fieldDeprecationReason:
            guard let value = host(source, as: FieldValue.self)?.field else { return .null }
            switch field {
            case .fieldName: return .value(.string(value.name))
            case .fieldDescription: return optionalString(value.description)
            case .fieldArgs: return inputValues(value.arguments, arguments)
            case .fieldType: return .object(TypeValue(type: value.type))
            case .fieldIsDeprecated: return .value(.bool(value.deprecationReason != nil))
            default: return optionalString(value.deprecationReason)
            }
        case .inputName, .inputDescription, .inputType, .inputDefaultValue, .inputIsDeprecated, .inputDeprecationReason:
            guard let value = host(source, as: InputValue.self)?.value else { return .null }
            switch field {
            case .inputName: return .value(.string(value.name))
            case .inputDescription: return optionalString(value.description)
            case .inputType: return .object(TypeValue(type: value.type))
            case .inputDefaultValue:
                guard let literal = value.defaultValue else { return .null }
                return optionalString(DefaultValue.print(literal, type: value.type, schema: schema))
            case .inputIsDeprecated: return .value(.bool(value.deprecationReason != nil))
            default: return optionalString(value.deprecationReason)
            }
        case .enumName, .enumDescription, .enumIsDeprecated, .enumDeprecationReason:
            guard let value = host(source, as: EnumValue.self)?.value else { return .null }
            switch field {
            case .enumName: return .value(.string(value.name))
            case .enumDescription: return optionalString(value.description)
            case .enumIsDeprecated: return .value(.bool(value.deprecationReason != nil))
            default: return optionalString(value.deprecationReason)
            }
        case .directiveName, .directiveDescription, .directiveIsRepeatable, .directiveLocations, .directiveArgs:
            guard let value = host(source, as: DirectiveValue.self)?.directive else { return .null }
            switch field {
            case .directiveName: return .value(.string(value.name))
            case .directiveDescription: return optionalString(value.description)
            case .directiveIsRepeatable: return .value(.bool(value.isRepeatable))
            case .directiveLocations: return .list(value.locations.map { .value(.string($0.rawValue)) })
            default: return inputValues(value.arguments, arguments)
            }
        default:
            guard let value = host(source, as: TypeValue.self)?.type else { return .null }
            return resolveType(field, value, arguments, schema)
        }
    }

    private static func resolveType(_ field: Field, _ value: GraphQLType, _ arguments: GraphQLObject, _ schema: GraphQLSchema) -> Resolved {
        let named: GraphQLNamedType?
        if case .named(let id) = value { named = schema[id] } else { named = nil }
        switch field {
        case .typeKind:
            switch value {
            case .list: return .value(.string("LIST"))
            case .nonNull: return .value(.string("NON_NULL"))
            case .named(let id): return .value(.string(schema[id].kind.rawValue))
            }
        case .typeName: return optionalString(named?.name)
        case .typeDescription: return optionalString(named?.description)
        case .typeSpecifiedByURL: return optionalString(named?.kind == .scalar ? named?.specifiedByURL : nil)
        case .typeFields:
            guard let named, named.kind == .object || named.kind == .interface else { return .null }
            let all = includeDeprecated(arguments)
            return .list(named.fields.compactMap { field in
                all || field.deprecationReason == nil ? .object(FieldValue(field: field)) : nil
            })
        case .typeInterfaces:
            guard let named, named.kind == .object || named.kind == .interface else { return .null }
            return .list(named.interfaces.map { .object(TypeValue(type: .named($0))) })
        case .typePossibleTypes:
            guard let named, named.kind == .interface || named.kind == .union else { return .null }
            return .list(schema.possibleTypes(of: named.id).map { .object(TypeValue(type: .named($0))) })
        case .typeEnumValues:
            guard let named, named.kind == .enumeration else { return .null }
            let all = includeDeprecated(arguments)
            return .list(named.enumValues.compactMap { value in
                all || value.deprecationReason == nil ? .object(EnumValue(value: value)) : nil
            })
        case .typeInputFields:
            guard let named, named.kind == .inputObject else { return .null }
            return inputValues(named.inputFields, arguments)
        case .typeOfType:
            switch value {
            case .list(let inner), .nonNull(let inner): return .object(TypeValue(type: inner))
            case .named: return .null
            }
        case .typeIsOneOf:
            guard let named, named.kind == .inputObject else { return .null }
            return .value(.bool(named.isOneOf))
        default:
            return .null
        }
    }
}
