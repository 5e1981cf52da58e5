/// The type system's own rules (graphql-js `validateSchema`): root types are object types, names
/// do not start with `__`, fields and arguments have the right kind of type, objects honour the
/// interfaces they implement, unions hold object types, input objects do not contain themselves
/// through non-null fields, `@oneOf` fields are nullable without defaults.
enum SchemaValidator {
    static func validate(_ schema: GraphQLSchema) -> [GraphQLError] {
        var context = Context(schema: schema)
        context.validateRootTypes()
        context.validateDirectives()
        context.validateTypes()
        return context.errors
    }

    struct Context {
        let schema: GraphQLSchema
        var errors: [GraphQLError] = []

        init(schema: GraphQLSchema) { self.schema = schema }

        mutating func report(_ message: String, _ ranges: [SourceRange?]) {
            let positions = ranges.compactMap { $0?.start }
            if let source = schema.source, !positions.isEmpty {
                errors.append(GraphQLError(message, source: source, positions: positions))
            } else {
                errors.append(GraphQLError(message))
            }
        }

        func describe(_ type: GraphQLType) -> String { schema.describe(type) }

        // MARK: Root types

        mutating func validateRootTypes() {
            let roots: [(OperationType, TypeID?)] = [
                (.query, schema.queryType), (.mutation, schema.mutationType), (.subscription, schema.subscriptionType),
            ]
            for (operation, root) in roots {
                guard let root else {
                    if operation == .query { report("Query root type must be provided.", [schema.definition?.range]) }
                    continue
                }
                let type = schema[root]
                guard type.kind != .object else { continue }
                let label = operation.rawValue.prefix(1).uppercased() + operation.rawValue.dropFirst()
                let message =
                    operation == .query
                    ? "Query root type must be Object type, it cannot be \(type.name)."
                    : "\(label) root type must be Object type if provided, it cannot be \(type.name)."
                report(message, [operationTypeNode(operation) ?? type.definition?.range])
            }
        }

        func operationTypeNode(_ operation: OperationType) -> SourceRange? {
            let nodes = (schema.definition.map { [$0.operationTypes] } ?? []) + schema.extensions.map(\.operationTypes)
            for node in nodes.joined() where node.operation == operation { return node.type.range }
            return nil
        }

        // MARK: Names

        mutating func validateName(_ name: String, _ node: SourceRange?) {
            if name.hasPrefix("__") {
                report(
                    "Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [node])
            }
        }

        // MARK: Directives

        mutating func validateDirectives() {
            for directive in schema.directives {
                validateName(directive.name, directive.definition?.range)
                for argument in directive.arguments {
                    // graphql-js points a directive argument's type error at the whole argument.
                    validateArgument(argument, of: "@\(directive.name)", typeErrorAt: argument.definition?.range)
                }
            }
        }

        /// An argument of a directive or field: its name, an input type, and not both required and
        /// deprecated. `owner` (`@name` or `Type.field`) is built only when there is a message.
        mutating func validateArgument(
            _ argument: GraphQLInputValue, of owner: @autoclosure () -> String, typeErrorAt: SourceRange?
        ) {
            validateName(argument.name, argument.definition?.range)
            if !schema.kind(of: argument.type).isInput {
                report(
                    "The type of \(owner())(\(argument.name):) must be Input Type but got: \(describe(argument.type)).",
                    [typeErrorAt])
            }
            if argument.isRequired && argument.deprecationReason != nil {
                report(
                    "Required argument \(owner())(\(argument.name):) cannot be deprecated.",
                    [deprecatedDirective(argument.definition?.directives), argument.definition?.type.range])
            }
        }

        func deprecatedDirective(_ directives: [Directive]?) -> SourceRange? {
            directives?.first { $0.name.value == "deprecated" }?.range
        }

        // MARK: Types

        mutating func validateTypes() {
            var cycles = InputObjectCycles()
            for type in schema.types {
                if !BuiltInDefinitions.introspectionTypeNames.contains(type.name) {
                    validateName(type.name, type.definition?.range)
                }
                switch type.kind {
                case .object, .interface:
                    validateFields(type)
                    validateInterfaces(type)
                case .union: validateUnionMembers(type)
                case .enumeration: validateEnumValues(type)
                case .inputObject:
                    validateInputFields(type)
                    cycles.detect(type, in: &self)
                case .scalar: break
                }
            }
        }

        func definitionNodes(_ type: GraphQLNamedType) -> [SourceRange?] {
            [type.definition?.range] + type.extensions.map(\.range)
        }

        mutating func validateFields(_ type: GraphQLNamedType) {
            if type.fields.isEmpty {
                report("Type \(type.name) must define one or more fields.", definitionNodes(type))
            }
            for field in type.fields {
                validateName(field.name, field.definition?.range)
                if !schema.kind(of: field.type).isOutput {
                    report(
                        "The type of \(type.name).\(field.name) must be Output Type but got: \(describe(field.type)).",
                        [field.definition?.type.range])
                }
                for argument in field.arguments {
                    validateArgument(argument, of: "\(type.name).\(field.name)", typeErrorAt: argument.definition?.type.range)
                }
            }
        }

        /// Every `implements` entry of `type` that names `interface`.
        func implementsNodes(_ type: GraphQLNamedType, _ interface: GraphQLNamedType) -> [SourceRange?] {
            let nodes = (type.definition?.interfaces ?? []) + type.extensions.flatMap(\.interfaces)
            return nodes.filter { $0.name.value == interface.name }.map(\.range)
        }

        mutating func validateInterfaces(_ type: GraphQLNamedType) {
            var seen: Set<TypeID> = []
            for interfaceID in type.interfaces {
                let interface = schema[interfaceID]
                if interface.kind != .interface {
                    report(
                        "Type \(type.name) must only implement Interface types, it cannot implement \(interface.name).",
                        implementsNodes(type, interface))
                    continue
                }
                if interfaceID == type.id {
                    report(
                        "Type \(type.name) cannot implement itself because it would create a circular reference.",
                        implementsNodes(type, interface))
                    continue
                }
                if !seen.insert(interfaceID).inserted {
                    report("Type \(type.name) can only implement \(interface.name) once.", implementsNodes(type, interface))
                    continue
                }
                validateImplementsAncestors(type, interface)
                validateImplements(type, interface)
            }
        }

        mutating func validateImplements(_ type: GraphQLNamedType, _ interface: GraphQLNamedType) {
            for interfaceField in interface.fields {
                let fieldName = interfaceField.name
                guard let typeField = type.field(named: fieldName) else {
                    report(
                        "Interface field \(interface.name).\(fieldName) expected but \(type.name) does not provide it.",
                        [interfaceField.definition?.range] + definitionNodes(type))
                    continue
                }
                if !schema.isTypeSubType(typeField.type, of: interfaceField.type) {
                    report(
                        "Interface field \(interface.name).\(fieldName) expects type \(describe(interfaceField.type)) but \(type.name).\(fieldName) is type \(describe(typeField.type)).",
                        [interfaceField.definition?.type.range, typeField.definition?.type.range])
                }
                for interfaceArgument in interfaceField.arguments {
                    let argumentName = interfaceArgument.name
                    guard let typeArgument = typeField.argument(named: argumentName) else {
                        report(
                            "Interface field argument \(interface.name).\(fieldName)(\(argumentName):) expected but \(type.name).\(fieldName) does not provide it.",
                            [interfaceArgument.definition?.range, typeField.definition?.range])
                        continue
                    }
                    if interfaceArgument.type != typeArgument.type {
                        report(
                            "Interface field argument \(interface.name).\(fieldName)(\(argumentName):) expects type \(describe(interfaceArgument.type)) but \(type.name).\(fieldName)(\(argumentName):) is type \(describe(typeArgument.type)).",
                            [interfaceArgument.definition?.type.range, typeArgument.definition?.type.range])
                    }
                }
                for typeArgument in typeField.arguments
                where typeArgument.isRequired && interfaceField.argument(named: typeArgument.name) == nil {
                    report(
                        "Object field \(type.name).\(fieldName) includes required argument \(typeArgument.name) that is missing from the Interface field \(interface.name).\(fieldName).",
                        [typeArgument.definition?.range, interfaceField.definition?.range])
                }
            }
        }

        mutating func validateImplementsAncestors(_ type: GraphQLNamedType, _ interface: GraphQLNamedType) {
            for transitiveID in interface.interfaces where !type.interfaces.contains(transitiveID) {
                let transitive = schema[transitiveID]
                let message =
                    transitiveID == type.id
                    ? "Type \(type.name) cannot implement \(interface.name) because it would create a circular reference."
                    : "Type \(type.name) must implement \(transitive.name) because it is implemented by \(interface.name)."
                report(message, implementsNodes(interface, transitive) + implementsNodes(type, interface))
            }
        }

        func memberNodes(_ union: GraphQLNamedType, _ name: String) -> [SourceRange?] {
            let nodes = (union.definition?.members ?? []) + union.extensions.flatMap(\.members)
            return nodes.filter { $0.name.value == name }.map(\.range)
        }

        mutating func validateUnionMembers(_ union: GraphQLNamedType) {
            if union.possibleTypes.isEmpty {
                report("Union type \(union.name) must define one or more member types.", definitionNodes(union))
            }
            var seen: Set<TypeID> = []
            for memberID in union.possibleTypes {
                let member = schema[memberID]
                if !seen.insert(memberID).inserted {
                    report(
                        "Union type \(union.name) can only include type \(member.name) once.",
                        memberNodes(union, member.name))
                    continue
                }
                if member.kind != .object {
                    report(
                        "Union type \(union.name) can only include Object types, it cannot include \(member.name).",
                        memberNodes(union, member.name))
                }
            }
        }

        mutating func validateEnumValues(_ type: GraphQLNamedType) {
            if type.enumValues.isEmpty {
                report("Enum type \(type.name) must define one or more values.", definitionNodes(type))
            }
            for value in type.enumValues { validateName(value.name, value.definition?.range) }
        }

        mutating func validateInputFields(_ type: GraphQLNamedType) {
            if type.inputFields.isEmpty {
                report("Input Object type \(type.name) must define one or more fields.", definitionNodes(type))
            }
            for field in type.inputFields {
                validateName(field.name, field.definition?.range)
                if !schema.kind(of: field.type).isInput {
                    report(
                        "The type of \(type.name).\(field.name) must be Input Type but got: \(describe(field.type)).",
                        [field.definition?.type.range])
                }
                if field.isRequired && field.deprecationReason != nil {
                    report(
                        "Required input field \(type.name).\(field.name) cannot be deprecated.",
                        [deprecatedDirective(field.definition?.directives), field.definition?.type.range])
                }
                if type.isOneOf {
                    if field.type.isNonNull {
                        report("OneOf input field \(type.name).\(field.name) must be nullable.", [field.definition?.type.range])
                    }
                    if field.defaultValue != nil {
                        report(
                            "OneOf input field \(type.name).\(field.name) cannot have a default value.",
                            [field.definition?.range])
                    }
                }
            }
        }
    }

    /// Input objects may not contain themselves through a chain of non-null fields: no finite value
    /// could be written for them.
    struct InputObjectCycles {
        var visited: Set<TypeID> = []
        var path: [GraphQLInputValue] = []
        var pathIndex: [TypeID: Int] = [:]

        mutating func detect(_ type: GraphQLNamedType, in context: inout Context) {
            guard visited.insert(type.id).inserted else { return }
            pathIndex[type.id] = path.count
            for field in type.inputFields {
                guard case .nonNull(.named(let targetID)) = field.type, context.schema[targetID].kind == .inputObject
                else { continue }
                path.append(field)
                if let cycleStart = pathIndex[targetID] {
                    let cycle = path[cycleStart...]
                    let names = cycle.map(\.name).joined(separator: ".")
                    context.report(
                        "Cannot reference Input Object \"\(context.schema[targetID].name)\" within itself through a series of non-null fields: \"\(names)\".",
                        cycle.map { $0.definition?.range })
                } else {
                    detect(context.schema[targetID], in: &context)
                }
                path.removeLast()
            }
            pathIndex[type.id] = nil
        }
    }
}
