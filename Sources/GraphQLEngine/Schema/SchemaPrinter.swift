/// Schema → SDL, identical to graphql-js 16.11's `printSchema`: the schema definition only when
/// root types are not named Query/Mutation/Subscription (or the schema has a description), then
/// the non-built-in directives, then the types in type-map order, built-ins left out.
public enum SchemaPrinter {
    public static func print(_ schema: GraphQLSchema) -> String {
        var parts: [String] = []
        if let definition = schemaDefinition(schema) { parts.append(definition) }
        for directive in schema.directives where !GraphQLDirective.specifiedNames.contains(directive.name) {
            parts.append(print(directive, schema))
        }
        for type in schema.types
        where !BuiltInDefinitions.scalarNames.contains(type.name)
            && !BuiltInDefinitions.introspectionTypeNames.contains(type.name)
        {
            parts.append(print(type, schema))
        }
        return parts.joined(separator: "\n\n")
    }

    static func schemaDefinition(_ schema: GraphQLSchema) -> String? {
        let roots: [(String, TypeID?, String)] = [
            ("query", schema.queryType, "Query"), ("mutation", schema.mutationType, "Mutation"),
            ("subscription", schema.subscriptionType, "Subscription"),
        ]
        let commonNames = roots.allSatisfy { _, id, name in id.map { schema[$0].name == name } ?? true }
        if schema.description == nil && commonNames { return nil }
        let lines = roots.compactMap { label, id, _ in id.map { "  \(label): \(schema[$0].name)" } }
        return description(schema.description) + "schema {\n" + lines.joined(separator: "\n") + "\n}"
    }

    public static func print(_ type: GraphQLNamedType, _ schema: GraphQLSchema) -> String {
        let head = description(type.description)
        switch type.kind {
        case .scalar:
            return head + "scalar \(type.name)"
                + (type.specifiedByURL.map { " @specifiedBy(url: \(Printer.printString($0)))" } ?? "")
        case .object, .interface:
            let keyword = type.kind == .object ? "type" : "interface"
            let implements =
                type.interfaces.isEmpty ? "" : " implements " + type.interfaces.map { schema[$0].name }.joined(separator: " & ")
            let fields = type.fields.enumerated().map { index, field in
                description(field.description, indentation: "  ", first: index == 0) + "  " + field.name
                    + arguments(field.arguments, indentation: "  ", schema) + ": " + schema.describe(field.type)
                    + deprecated(field.deprecationReason)
            }
            return head + "\(keyword) \(type.name)" + implements + block(fields)
        case .union:
            let members = type.possibleTypes.isEmpty ? "" : " = " + type.possibleTypes.map { schema[$0].name }.joined(separator: " | ")
            return head + "union \(type.name)" + members
        case .enumeration:
            let values = type.enumValues.enumerated().map { index, value in
                description(value.description, indentation: "  ", first: index == 0) + "  " + value.name
                    + deprecated(value.deprecationReason)
            }
            return head + "enum \(type.name)" + block(values)
        case .inputObject:
            let fields = type.inputFields.enumerated().map { index, field in
                description(field.description, indentation: "  ", first: index == 0) + "  " + inputValue(field, schema)
            }
            return head + "input \(type.name)" + (type.isOneOf ? " @oneOf" : "") + block(fields)
        }
    }

    static func print(_ directive: GraphQLDirective, _ schema: GraphQLSchema) -> String {
        description(directive.description) + "directive @" + directive.name + arguments(directive.arguments, indentation: "", schema)
            + (directive.isRepeatable ? " repeatable" : "") + " on "
            + directive.locations.map(\.rawValue).joined(separator: " | ")
    }

    static func block(_ items: [String]) -> String {
        items.isEmpty ? "" : " {\n" + items.joined(separator: "\n") + "\n}"
    }

    static func arguments(_ arguments: [GraphQLInputValue], indentation: String, _ schema: GraphQLSchema) -> String {
        if arguments.isEmpty { return "" }
        if arguments.allSatisfy({ $0.description == nil || $0.description == "" }) {
            return "(" + arguments.map { inputValue($0, schema) }.joined(separator: ", ") + ")"
        }
        let lines = arguments.enumerated().map { index, argument in
            description(argument.description, indentation: "  " + indentation, first: index == 0) + "  " + indentation
                + inputValue(argument, schema)
        }
        return "(\n" + lines.joined(separator: "\n") + "\n" + indentation + ")"
    }

    static func inputValue(_ value: GraphQLInputValue, _ schema: GraphQLSchema) -> String {
        var text = value.name + ": " + schema.describe(value.type)
        if let literal = value.defaultValue, let printed = DefaultValue.print(literal, type: value.type, schema: schema) {
            text += " = " + printed
        }
        return text + deprecated(value.deprecationReason)
    }

    static func deprecated(_ reason: String?) -> String {
        guard let reason else { return "" }
        if reason == GraphQLDirective.defaultDeprecationReason { return " @deprecated" }
        return " @deprecated(reason: \(Printer.printString(reason)))"
    }

    static func description(_ text: String?, indentation: String = "", first: Bool = true) -> String {
        guard let text else { return "" }
        let literal = BlockString.isPrintable(text) ? BlockString.print(text) : Printer.printString(text)
        let prefix = !indentation.isEmpty && !first ? "\n" + indentation : indentation
        return prefix + literal.replacingAll("\n", with: "\n" + indentation) + "\n"
    }
}
