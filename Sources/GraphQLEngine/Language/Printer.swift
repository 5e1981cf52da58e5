/// AST → canonical GraphQL text, identical to graphql-js's `print()`: two-space indentation,
/// one definition per paragraph, arguments wrapped past 80 columns, strings and block strings
/// in their canonical forms. `print(parse(text))` parses back to the same document.
public enum Printer {
    public static func print(_ document: Document) -> String {
        join(document.definitions.map(print), "\n\n")
    }

    public static func print(_ definition: Definition) -> String {
        switch definition {
        case .operation(let node): print(node)
        case .fragment(let node): print(node)
        case .schema(let node): print(node)
        case .type(let node): print(node)
        case .directive(let node): print(node)
        case .schemaExtension(let node): print(node)
        case .typeExtension(let node): print(node)
        }
    }

    // MARK: - Executable definitions

    public static func print(_ node: OperationDefinition) -> String {
        let variables = wrap("(", join(node.variableDefinitions.map(print), ", "), ")")
        let prefix = join([node.operation.rawValue, join([node.name?.value, variables]), directives(node.directives)], " ")
        // An anonymous query without variables or directives prints in the shorthand form.
        let body = (prefix == "query" ? "" : prefix + " ") + print(node.selectionSet)
        return described(node.description, body)
    }

    public static func print(_ node: VariableDefinition) -> String {
        // A variable's description stays on its line: `"the id" $id: ID`.
        wrap("", node.description.map(print), " ") + "$" + node.variable.name.value + ": " + print(node.type)
            + wrap(" = ", node.defaultValue.map(print)) + wrap(" ", directives(node.directives))
    }

    public static func print(_ node: SelectionSet) -> String {
        block(node.selections.map(print))
    }

    public static func print(_ node: Selection) -> String {
        switch node {
        case .field(let field):
            let prefix = wrap("", field.alias?.value, ": ") + field.name.value
            let arguments = field.arguments.map(print)
            var line = prefix + wrap("(", join(arguments, ", "), ")")
            if line.utf16.count > maxLineLength {
                line = prefix + wrap("(\n", indent(join(arguments, "\n")), "\n)")
            }
            return join([line, directives(field.directives), field.selectionSet.map(print)], " ")
        case .fragmentSpread(let spread):
            return "..." + spread.name.value + wrap(" ", directives(spread.directives))
        case .inlineFragment(let fragment):
            return join(
                ["...", wrap("on ", fragment.typeCondition?.name.value), directives(fragment.directives),
                 print(fragment.selectionSet)],
                " ")
        }
    }

    public static func print(_ node: FragmentDefinition) -> String {
        let body =
            "fragment \(node.name.value) on \(node.typeCondition.name.value) "
            + wrap("", directives(node.directives), " ") + print(node.selectionSet)
        return described(node.description, body)
    }

    // MARK: - Values and types

    public static func print(_ value: Value) -> String {
        switch value {
        case .variable(let variable): "$" + variable.name.value
        case .int(let node): node.value
        case .float(let node): node.value
        case .string(let node): print(node)
        case .boolean(let node): node.value ? "true" : "false"
        case .null: "null"
        case .enumValue(let node): node.value
        case .list(let node): "[" + join(node.values.map(print), ", ") + "]"
        case .object(let node):
            "{" + join(node.fields.map { $0.name.value + ": " + print($0.value) }, ", ") + "}"
        }
    }

    public static func print(_ node: StringValue) -> String {
        node.block ? BlockString.print(node.value) : printString(node.value)
    }

    public static func print(_ type: TypeReference) -> String {
        switch type {
        case .named(let named): named.name.value
        case .list(let inner, _): "[" + print(inner) + "]"
        case .nonNull(let inner, _): print(inner.typeReference) + "!"
        }
    }

    static func print(_ argument: Argument) -> String {
        argument.name.value + ": " + print(argument.value)
    }

    static func print(_ directive: Directive) -> String {
        "@" + directive.name.value + wrap("(", join(directive.arguments.map(print), ", "), ")")
    }

    static func directives(_ list: [Directive]) -> String {
        join(list.map(print), " ")
    }

    // MARK: - Layout helpers (graphql-js's join, wrap, block, indent)

    static let maxLineLength = 80

    /// Joins the non-empty parts.
    static func join(_ parts: [String?], _ separator: String = "") -> String {
        var output = ""
        var first = true
        for case let part? in parts where !part.isEmpty {
            if !first { output += separator }
            output += part
            first = false
        }
        return output
    }

    static func join(_ parts: [String], _ separator: String = "") -> String {
        join(parts.map(Optional.some), separator)
    }

    /// `start + text + end` when text is non-empty, else nothing.
    static func wrap(_ start: String, _ text: String?, _ end: String = "") -> String {
        guard let text, !text.isEmpty else { return "" }
        return start + text + end
    }

    /// `{`, the items one per line indented, `}`; nothing when there are no items.
    static func block(_ items: [String]) -> String {
        wrap("{\n", indent(join(items, "\n")), "\n}")
    }

    /// Two spaces before every line (block string lines included, as graphql-js does).
    static func indent(_ text: String) -> String {
        wrap("  ", text.replacingAll("\n", with: "\n  "))
    }

    static func described(_ description: StringValue?, _ body: String) -> String {
        wrap("", description.map(print), "\n") + body
    }

    /// A string literal with graphql-js's escapes: `\"`, `\\`, `\b \f \n \r \t`, and `\u00XX`
    /// for other C0 and C1 control characters.
    public static func printString(_ value: String) -> String {
        var output = "\""
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x08: output += "\\b"
            case 0x09: output += "\\t"
            case 0x0A: output += "\\n"
            case 0x0C: output += "\\f"
            case 0x0D: output += "\\r"
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F: output += "\\u" + TokenReader.hex(scalar.value, digits: 4)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
