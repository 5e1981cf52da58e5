extension Printer {
    public static func print(_ node: SchemaDefinition) -> String {
        described(
            node.description,
            join(["schema", directives(node.directives), block(node.operationTypes.map(print))], " "))
    }

    static func print(_ node: OperationTypeDefinition) -> String {
        node.operation.rawValue + ": " + node.type.name.value
    }

    public static func print(_ node: TypeDefinition) -> String {
        switch node {
        case .scalar(let type):
            return described(type.description, join(["scalar", type.name.value, directives(type.directives)], " "))
        case .object(let type):
            return described(
                type.description,
                join(
                    ["type", type.name.value, implements(type.interfaces), directives(type.directives),
                     block(type.fields.map(print))],
                    " "))
        case .interface(let type):
            return described(
                type.description,
                join(
                    ["interface", type.name.value, implements(type.interfaces), directives(type.directives),
                     block(type.fields.map(print))],
                    " "))
        case .union(let type):
            return described(
                type.description,
                join(["union", type.name.value, directives(type.directives), members(type.types)], " "))
        case .enumeration(let type):
            return described(
                type.description,
                join(["enum", type.name.value, directives(type.directives), block(type.values.map(print))], " "))
        case .inputObject(let type):
            return described(
                type.description,
                join(["input", type.name.value, directives(type.directives), block(type.fields.map(print))], " "))
        }
    }

    static func print(_ node: FieldDefinition) -> String {
        described(
            node.description,
            node.name.value + argumentDefinitions(node.arguments) + ": " + print(node.type)
                + wrap(" ", directives(node.directives)))
    }

    static func print(_ node: InputValueDefinition) -> String {
        described(
            node.description,
            join(
                [node.name.value + ": " + print(node.type), wrap("= ", node.defaultValue.map(print)),
                 directives(node.directives)],
                " "))
    }

    static func print(_ node: EnumValueDefinition) -> String {
        described(node.description, join([node.name.value, directives(node.directives)], " "))
    }

    public static func print(_ node: DirectiveDefinition) -> String {
        described(
            node.description,
            "directive @" + node.name.value + argumentDefinitions(node.arguments)
                + (node.repeatable ? " repeatable" : "") + " on " + join(node.locations.map(\.value), " | "))
    }

    public static func print(_ node: SchemaExtension) -> String {
        join(["extend schema", directives(node.directives), block(node.operationTypes.map(print))], " ")
    }

    public static func print(_ node: TypeExtension) -> String {
        switch node {
        case .scalar(let type):
            join(["extend scalar", type.name.value, directives(type.directives)], " ")
        case .object(let type):
            join(
                ["extend type", type.name.value, implements(type.interfaces), directives(type.directives),
                 block(type.fields.map(print))],
                " ")
        case .interface(let type):
            join(
                ["extend interface", type.name.value, implements(type.interfaces), directives(type.directives),
                 block(type.fields.map(print))],
                " ")
        case .union(let type):
            join(["extend union", type.name.value, directives(type.directives), members(type.types)], " ")
        case .enumeration(let type):
            join(["extend enum", type.name.value, directives(type.directives), block(type.values.map(print))], " ")
        case .inputObject(let type):
            join(["extend input", type.name.value, directives(type.directives), block(type.fields.map(print))], " ")
        }
    }

    /// `(a: A, b: B)`, or one per line when any argument printed on several lines.
    static func argumentDefinitions(_ arguments: [InputValueDefinition]) -> String {
        let printed = arguments.map(print)
        if printed.contains(where: { $0.utf8.contains(0x0A) }) {
            return wrap("(\n", indent(join(printed, "\n")), "\n)")
        }
        return wrap("(", join(printed, ", "), ")")
    }

    static func implements(_ interfaces: [NamedType]) -> String {
        wrap("implements ", join(interfaces.map(\.name.value), " & "))
    }

    static func members(_ types: [NamedType]) -> String {
        wrap("= ", join(types.map(\.name.value), " | "))
    }
}
