extension Parser {
    /// SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }
    mutating func parseSchemaDefinition() throws(GraphQLError) -> SchemaDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(constant: true)
        try expect(.braceL)
        var operationTypes: [OperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseOperationTypeDefinition())
        } while try !expectOptional(.braceR)
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes,
            range: range(from: start))
    }

    /// RootOperationTypeDefinition : OperationType : NamedType
    mutating func parseOperationTypeDefinition() throws(GraphQLError) -> OperationTypeDefinition {
        let start = lexer.token.start
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return OperationTypeDefinition(operation: operation, type: type, range: range(from: start))
    }

    /// ScalarTypeDefinition : Description? scalar Name Directives[Const]?
    mutating func parseScalarTypeDefinition() throws(GraphQLError) -> ScalarTypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        return ScalarTypeDefinition(description: description, name: name, directives: directives, range: range(from: start))
    }

    /// ObjectTypeDefinition : Description? type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?
    mutating func parseObjectTypeDefinition() throws(GraphQLError) -> ObjectTypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(constant: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            range: range(from: start))
    }

    /// ImplementsInterfaces : implements `&`? NamedType (& NamedType)*
    mutating func parseImplementsInterfaces() throws(GraphQLError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        return try parseDelimitedNamedTypes(by: .amp)
    }

    /// `sep? NamedType (sep NamedType)*`, for interfaces (`&`) and union members (`|`).
    mutating func parseDelimitedNamedTypes(by delimiter: TokenKind) throws(GraphQLError) -> [NamedType] {
        _ = try expectOptional(delimiter)
        var types: [NamedType] = []
        repeat {
            types.append(try parseNamedType())
        } while try expectOptional(delimiter)
        return types
    }

    /// FieldsDefinition : { FieldDefinition+ }
    mutating func parseFieldsDefinition() throws(GraphQLError) -> [FieldDefinition] {
        guard try expectOptional(.braceL) else { return [] }
        var fields: [FieldDefinition] = []
        // Lists of definitions rarely hold one or two: one allocation instead of two doublings
        // (most of a large schema's reallocations), as for selection sets.
        fields.reserveCapacity(4)
        repeat {
            let start = lexer.token.start
            let description = try parseDescription()
            let name = try parseName()
            let arguments = try parseArgumentDefinitions()
            try expect(.colon)
            let type = try parseTypeReference()
            let directives = try parseDirectives(constant: true)
            fields.append(
                FieldDefinition(
                    description: description, name: name, arguments: arguments, type: type, directives: directives,
                    range: range(from: start)))
        } while try !expectOptional(.braceR)
        return fields
    }

    /// ArgumentsDefinition : ( InputValueDefinition+ )
    mutating func parseArgumentDefinitions() throws(GraphQLError) -> [InputValueDefinition] {
        guard try expectOptional(.parenL) else { return [] }
        var arguments: [InputValueDefinition] = []
        arguments.reserveCapacity(4)
        repeat {
            arguments.append(try parseInputValueDefinition())
        } while try !expectOptional(.parenR)
        return arguments
    }

    /// InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?
    mutating func parseInputValueDefinition() throws(GraphQLError) -> InputValueDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue: Value? = try expectOptional(.equals) ? try parseValue(constant: true) : nil
        let directives = try parseDirectives(constant: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            range: range(from: start))
    }

    /// InterfaceTypeDefinition : Description? interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?
    mutating func parseInterfaceTypeDefinition() throws(GraphQLError) -> InterfaceTypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(constant: true)
        let fields = try parseFieldsDefinition()
        return InterfaceTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            range: range(from: start))
    }

    /// UnionTypeDefinition : Description? union Name Directives[Const]? UnionMemberTypes?
    mutating func parseUnionTypeDefinition() throws(GraphQLError) -> UnionTypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, range: range(from: start))
    }

    /// UnionMemberTypes : = `|`? NamedType (| NamedType)*
    mutating func parseUnionMemberTypes() throws(GraphQLError) -> [NamedType] {
        guard try expectOptional(.equals) else { return [] }
        return try parseDelimitedNamedTypes(by: .pipe)
    }

    /// EnumTypeDefinition : Description? enum Name Directives[Const]? EnumValuesDefinition?
    mutating func parseEnumTypeDefinition() throws(GraphQLError) -> EnumTypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, range: range(from: start))
    }

    /// EnumValuesDefinition : { EnumValueDefinition+ }
    mutating func parseEnumValuesDefinition() throws(GraphQLError) -> [EnumValueDefinition] {
        guard try expectOptional(.braceL) else { return [] }
        var values: [EnumValueDefinition] = []
        values.reserveCapacity(4)
        repeat {
            let start = lexer.token.start
            let description = try parseDescription()
            let token = lexer.token
            if hasValue(token, "true") || hasValue(token, "false") || hasValue(token, "null") {
                throw error(at: token.start, "\(describe(token)) is reserved and cannot be used for an enum value.")
            }
            let name = try parseName()
            let directives = try parseDirectives(constant: true)
            values.append(
                EnumValueDefinition(description: description, name: name, directives: directives, range: range(from: start)))
        } while try !expectOptional(.braceR)
        return values
    }

    /// InputObjectTypeDefinition : Description? input Name Directives[Const]? InputFieldsDefinition?
    mutating func parseInputObjectTypeDefinition() throws(GraphQLError) -> InputObjectTypeDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        let fields = try parseInputFieldsDefinition()
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, range: range(from: start))
    }

    /// InputFieldsDefinition : { InputValueDefinition+ }
    mutating func parseInputFieldsDefinition() throws(GraphQLError) -> [InputValueDefinition] {
        guard try expectOptional(.braceL) else { return [] }
        var fields: [InputValueDefinition] = []
        fields.reserveCapacity(4)
        repeat {
            fields.append(try parseInputValueDefinition())
        } while try !expectOptional(.braceR)
        return fields
    }

    /// DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations
    mutating func parseDirectiveDefinition() throws(GraphQLError) -> DirectiveDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let repeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        _ = try expectOptional(.pipe)
        var locations: [Name] = []
        repeat {
            let token = lexer.token
            let location = try parseName()
            guard DirectiveLocation(rawValue: location.value) != nil else { throw unexpected(token) }
            locations.append(location)
        } while try expectOptional(.pipe)
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, repeatable: repeatable, locations: locations,
            range: range(from: start))
    }

    // MARK: - Extensions

    /// TypeSystemExtension : SchemaExtension | TypeExtension
    mutating func parseTypeSystemExtension() throws(GraphQLError) -> Definition {
        let keywordToken = try lexer.lookahead()
        switch definitionKeyword(keywordToken) {
        case .schema: return .schemaExtension(try parseSchemaExtension())
        case .scalar: return .typeExtension(.scalar(try parseScalarTypeExtension()))
        case .type: return .typeExtension(.object(try parseObjectTypeExtension()))
        case .interface: return .typeExtension(.interface(try parseInterfaceTypeExtension()))
        case .union: return .typeExtension(.union(try parseUnionTypeExtension()))
        case .enumeration: return .typeExtension(.enumeration(try parseEnumTypeExtension()))
        case .input: return .typeExtension(.inputObject(try parseInputObjectTypeExtension()))
        default: break
        }
        throw unexpected(keywordToken)
    }

    /// SchemaExtension : extend schema Directives[Const]? { RootOperationTypeDefinition+ }
    ///                 | extend schema Directives[Const] [lookahead != {]
    mutating func parseSchemaExtension() throws(GraphQLError) -> SchemaExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("schema")
        let directives = try parseDirectives(constant: true)
        var operationTypes: [OperationTypeDefinition] = []
        if try expectOptional(.braceL) {
            repeat {
                operationTypes.append(try parseOperationTypeDefinition())
            } while try !expectOptional(.braceR)
        }
        if directives.isEmpty && operationTypes.isEmpty { throw unexpected() }
        return SchemaExtension(directives: directives, operationTypes: operationTypes, range: range(from: start))
    }

    mutating func parseScalarTypeExtension() throws(GraphQLError) -> ScalarTypeExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        if directives.isEmpty { throw unexpected() }
        return ScalarTypeExtension(name: name, directives: directives, range: range(from: start))
    }

    mutating func parseObjectTypeExtension() throws(GraphQLError) -> ObjectTypeExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(constant: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
        return ObjectTypeExtension(
            name: name, interfaces: interfaces, directives: directives, fields: fields, range: range(from: start))
    }

    mutating func parseInterfaceTypeExtension() throws(GraphQLError) -> InterfaceTypeExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(constant: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
        return InterfaceTypeExtension(
            name: name, interfaces: interfaces, directives: directives, fields: fields, range: range(from: start))
    }

    mutating func parseUnionTypeExtension() throws(GraphQLError) -> UnionTypeExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        let types = try parseUnionMemberTypes()
        if directives.isEmpty && types.isEmpty { throw unexpected() }
        return UnionTypeExtension(name: name, directives: directives, types: types, range: range(from: start))
    }

    mutating func parseEnumTypeExtension() throws(GraphQLError) -> EnumTypeExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        let values = try parseEnumValuesDefinition()
        if directives.isEmpty && values.isEmpty { throw unexpected() }
        return EnumTypeExtension(name: name, directives: directives, values: values, range: range(from: start))
    }

    mutating func parseInputObjectTypeExtension() throws(GraphQLError) -> InputObjectTypeExtension {
        let start = lexer.token.start
        try expectKeyword("extend")
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(constant: true)
        let fields = try parseInputFieldsDefinition()
        if directives.isEmpty && fields.isEmpty { throw unexpected() }
        return InputObjectTypeExtension(name: name, directives: directives, fields: fields, range: range(from: start))
    }
}
