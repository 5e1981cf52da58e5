/// The rules an SDL document must pass before a schema is built from it (graphql-js
/// `specifiedSDLRules`): LoneSchemaDefinition, UniqueOperationTypes, UniqueTypeNames,
/// UniqueEnumValueNames, UniqueFieldDefinitionNames, UniqueArgumentDefinitionNames,
/// UniqueDirectiveNames, KnownTypeNames, KnownDirectives, UniqueDirectivesPerLocation,
/// PossibleTypeExtensions, KnownArgumentNamesOnDirectives, UniqueArgumentNames,
/// UniqueInputFieldNames and ProvidedRequiredArgumentsOnDirectives — in one pass.
struct SDLValidator {
    let document: Document
    var errors: [GraphQLError] = []

    // Known names
    var definedTypes: [String: TypeDefinition] = [:]
    var definedTypeNames: [String] = []
    var directiveLocations: [String: [DirectiveLocation]] = [:]
    var directiveArguments: [String: [InputValueDefinition]] = [:]
    var directiveUnique: [String: Bool] = [:]

    // Uniqueness state
    var schemaDefinitionCount = 0
    var operationTypes: [OperationType: OperationTypeDefinition] = [:]
    var typeNames: [String: Name] = [:]
    var enumValueNames: [String: [String: Name]] = [:]
    var fieldNames: [String: [String: Name]] = [:]
    var directiveNames: [String: Name] = [:]
    var schemaDirectives: [String: Directive] = [:]
    var typeDirectives: [String: [String: Directive]] = [:]

    static func validate(_ document: Document) -> [GraphQLError] {
        var validator = SDLValidator(document: document)
        validator.run()
        return validator.errors
    }

    init(document: Document) {
        self.document = document
        for definition in BuiltInDefinitions.document.definitions {
            if case .directive(let directive) = definition { learn(directive) }
        }
        for definition in document.definitions {
            switch definition {
            case .type(let type):
                if definedTypes[type.name.value] == nil { definedTypeNames.append(type.name.value) }
                definedTypes[type.name.value] = type
            case .directive(let directive): learn(directive)
            default: break
            }
        }
    }

    mutating func learn(_ directive: DirectiveDefinition) {
        let name = directive.name.value
        directiveLocations[name] = directive.directiveLocations
        directiveArguments[name] = directive.arguments
        directiveUnique[name] = !directive.repeatable
    }

    mutating func report(_ message: String, _ ranges: [SourceRange]) {
        errors.append(GraphQLError(message, source: document.source, positions: ranges.map(\.start)))
    }

    // MARK: - The pass

    mutating func run() {
        for definition in document.definitions {
            switch definition {
            case .schema(let node):
                if schemaDefinitionCount > 0 { report("Must provide only one schema definition.", [node.range]) }
                schemaDefinitionCount += 1
                checkOperationTypes(node.operationTypes)
                var seen = schemaDirectives
                checkDirectives(node.directives, at: .schema, seen: &seen)
                schemaDirectives = seen
                for operationType in node.operationTypes { checkNamedType(operationType.type) }
            case .schemaExtension(let node):
                checkOperationTypes(node.operationTypes)
                var seen = schemaDirectives
                checkDirectives(node.directives, at: .schema, seen: &seen)
                schemaDirectives = seen
                for operationType in node.operationTypes { checkNamedType(operationType.type) }
            case .type(let node):
                checkTypeName(node.name)
                visitType(name: node.name.value, definition: node)
            case .typeExtension(let node):
                checkExtension(node)
                visitExtension(node)
            case .directive(let node):
                checkDirectiveName(node.name)
                checkArgumentDefinitions("@" + node.name.value, node.arguments)
                for argument in node.arguments { visitInputValue(argument, location: .argumentDefinition) }
            case .operation, .fragment:
                break
            }
        }
    }

    mutating func visitType(name: String, definition: TypeDefinition) {
        visitParts(
            name, directives: definition.directives, at: definition.directiveLocation, interfaces: definition.interfaces,
            fields: definition.fields, members: definition.members, values: definition.values,
            inputFields: definition.inputFields, inputFieldLocation: .inputFieldDefinition)
    }

    mutating func visitExtension(_ node: TypeExtension) {
        // graphql-js names the location of an input *extension*'s fields ARGUMENT_DEFINITION.
        visitParts(
            node.name.value, directives: node.directives, at: node.directiveLocation, interfaces: node.interfaces,
            fields: node.fields, members: node.members, values: node.values, inputFields: node.inputFields,
            inputFieldLocation: .argumentDefinition)
    }

    /// A definition's or extension's parts, in graphql-js's visiting order (kinds lack the
    /// parts that do not apply to them, so each kind takes only its own steps).
    mutating func visitParts(
        _ name: String, directives: [Directive], at location: DirectiveLocation, interfaces: [NamedType],
        fields: [FieldDefinition], members: [NamedType], values: [EnumValueDefinition],
        inputFields: [InputValueDefinition], inputFieldLocation: DirectiveLocation
    ) {
        checkEnumValueNames(name, values)
        checkFieldNames(name, fields.isEmpty ? inputFields.map(\.name) : fields.map(\.name))
        checkFieldArguments(name, fields)
        checkTypeDirectives(name, directives, at: location)
        for interface in interfaces { checkNamedType(interface) }
        for member in members { checkNamedType(member) }
        for field in fields { visitField(field) }
        for value in values {
            var seen: [String: Directive] = [:]
            checkDirectives(value.directives, at: .enumValue, seen: &seen)
        }
        for field in inputFields { visitInputValue(field, location: inputFieldLocation) }
    }

    mutating func visitField(_ field: FieldDefinition) {
        for argument in field.arguments { visitInputValue(argument, location: .argumentDefinition) }
        checkNamedType(field.type.namedType)
        var seen: [String: Directive] = [:]
        checkDirectives(field.directives, at: .fieldDefinition, seen: &seen)
    }

    mutating func visitInputValue(_ value: InputValueDefinition, location: DirectiveLocation) {
        checkNamedType(value.type.namedType)
        if let defaultValue = value.defaultValue { checkInputFieldNames(defaultValue) }
        var seen: [String: Directive] = [:]
        checkDirectives(value.directives, at: location, seen: &seen)
    }

    // MARK: - Checks

    mutating func checkOperationTypes(_ nodes: [OperationTypeDefinition]) {
        for node in nodes {
            if let existing = operationTypes[node.operation] {
                report("There can be only one \(node.operation.rawValue) type in schema.", [existing.range, node.range])
            } else {
                operationTypes[node.operation] = node
            }
        }
    }

    mutating func checkTypeName(_ name: Name) {
        if let existing = typeNames[name.value] {
            report("There can be only one type named \"\(name.value)\".", [existing.range, name.range])
        } else {
            typeNames[name.value] = name
        }
    }

    mutating func checkDirectiveName(_ name: Name) {
        if let existing = directiveNames[name.value] {
            report("There can be only one directive named \"@\(name.value)\".", [existing.range, name.range])
        } else {
            directiveNames[name.value] = name
        }
    }

    mutating func checkEnumValueNames(_ typeName: String, _ values: [EnumValueDefinition]) {
        for value in values {
            if let existing = enumValueNames[typeName]?[value.name.value] {
                report("Enum value \"\(typeName).\(value.name.value)\" can only be defined once.", [existing.range, value.name.range])
            } else {
                enumValueNames[typeName, default: [:]][value.name.value] = value.name
            }
        }
    }

    mutating func checkFieldNames(_ typeName: String, _ names: [Name]) {
        for name in names {
            if let existing = fieldNames[typeName]?[name.value] {
                report("Field \"\(typeName).\(name.value)\" can only be defined once.", [existing.range, name.range])
            } else {
                fieldNames[typeName, default: [:]][name.value] = name
            }
        }
    }

    mutating func checkFieldArguments(_ typeName: String, _ fields: [FieldDefinition]) {
        for field in fields { checkArgumentDefinitions("\(typeName).\(field.name.value)", field.arguments) }
    }

    mutating func checkArgumentDefinitions(_ parent: String, _ arguments: [InputValueDefinition]) {
        for (name, ranges) in arguments.map(\.name).duplicates {
            report("Argument \"\(parent)(\(name):)\" can only be defined once.", ranges)
        }
    }

    mutating func checkNamedType(_ node: NamedType) {
        let name = node.name.value
        if definedTypes[name] != nil || BuiltInDefinitions.standardTypeNames.contains(name) { return }
        let suggestions = Suggestions.list(name, BuiltInDefinitions.standardTypeNames + definedTypeNames)
        report("Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions), [node.range])
    }

    mutating func checkExtension(_ node: TypeExtension) {
        let name = node.name.value
        guard let definition = definedTypes[name] else {
            let suggestions = Suggestions.list(name, definedTypeNames)
            report(
                "Cannot extend type \"\(name)\" because it is not defined." + Suggestions.didYouMean(suggestions),
                [node.name.range])
            return
        }
        let expected: String
        let matches: Bool
        switch (definition, node) {
        case (.scalar, .scalar), (.object, .object), (.interface, .interface), (.union, .union),
            (.enumeration, .enumeration), (.inputObject, .inputObject):
            matches = true
            expected = ""
        default:
            matches = false
            switch node {
            case .scalar: expected = "scalar"
            case .object: expected = "object"
            case .interface: expected = "interface"
            case .union: expected = "union"
            case .enumeration: expected = "enum"
            case .inputObject: expected = "input object"
            }
        }
        if !matches { report("Cannot extend non-\(expected) type \"\(name)\".", [definition.range, node.range]) }
    }

    mutating func checkTypeDirectives(_ typeName: String, _ directives: [Directive], at location: DirectiveLocation) {
        var seen = typeDirectives[typeName] ?? [:]
        checkDirectives(directives, at: location, seen: &seen)
        typeDirectives[typeName] = seen
    }

    /// KnownDirectives, UniqueDirectivesPerLocation, KnownArgumentNamesOnDirectives,
    /// UniqueArgumentNames, UniqueInputFieldNames and ProvidedRequiredArgumentsOnDirectives.
    mutating func checkDirectives(_ directives: [Directive], at location: DirectiveLocation, seen: inout [String: Directive]) {
        for directive in directives {
            let name = directive.name.value
            if let locations = directiveLocations[name] {
                if !locations.contains(location) {
                    report("Directive \"@\(name)\" may not be used on \(location.rawValue).", [directive.range])
                }
            } else {
                report("Unknown directive \"@\(name)\".", [directive.range])
            }
            if directiveUnique[name] == true {
                if let first = seen[name] {
                    report("The directive \"@\(name)\" can only be used once at this location.", [first.range, directive.range])
                } else {
                    seen[name] = directive
                }
            }
            if let known = directiveArguments[name] {
                let knownNames = known.map(\.name.value)
                for argument in directive.arguments where !knownNames.contains(argument.name.value) {
                    let suggestions = Suggestions.list(argument.name.value, knownNames)
                    report(
                        "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"."
                            + Suggestions.didYouMean(suggestions), [argument.range])
                }
            }
            for (argumentName, ranges) in directive.arguments.map(\.name).duplicates {
                report("There can be only one argument named \"\(argumentName)\".", ranges)
            }
            for argument in directive.arguments { checkInputFieldNames(argument.value) }
            for definition in directiveArguments[name] ?? []
            where definition.type.isNonNullReference && definition.defaultValue == nil
                && !directive.arguments.contains(where: { $0.name.value == definition.name.value })
            {
                report(
                    "Directive \"@\(name)\" argument \"\(definition.name.value)\" of type \"\(Printer.print(definition.type))\" is required, but it was not provided.",
                    [directive.range])
            }
        }
    }

    /// UniqueInputFieldNames inside a value.
    mutating func checkInputFieldNames(_ value: Value) {
        switch value {
        case .list(let list): for item in list.values { checkInputFieldNames(item) }
        case .object(let object):
            var known: [String: Name] = [:]
            for field in object.fields {
                if let first = known[field.name.value] {
                    report("There can be only one input field named \"\(field.name.value)\".", [first.range, field.name.range])
                } else {
                    known[field.name.value] = field.name
                }
                checkInputFieldNames(field.value)
            }
        default: break
        }
    }
}

extension TypeReference {
    var isNonNullReference: Bool {
        if case .nonNull = self { return true }
        return false
    }
}
