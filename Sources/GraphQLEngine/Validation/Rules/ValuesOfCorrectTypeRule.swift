/// Literal values fit the type of the position they are written in: scalars parse, enum values
/// exist, input objects have their required fields and no unknown ones, `@oneOf` objects set
/// exactly one non-null field.
final class ValuesOfCorrectTypeRule: ValidationRule {
    override class var events: ValidationEvents { [.value, .objectField] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.arguments) }

    override func enterValue(_ node: Value) {
        switch node {
        case .list:
            if !(typeInfo.parentInputType?.isList ?? false) {
                check(node)
                skipChildren()
            }
        case .object(let object):
            guard let id = typeInfo.inputType?.namedType, schema[id].kind == .inputObject else {
                check(node)
                skipChildren()
                return
            }
            let type = schema[id]
            var given: [String: ObjectField] = [:]
            var keys: [String] = []
            for field in object.fields {
                if given[field.name.value] == nil { keys.append(field.name.value) }
                given[field.name.value] = field
            }
            for field in type.inputFields where given[field.name] == nil && field.isRequired {
                report(
                    "Field \"\(type.name).\(field.name)\" of required type \"\(schema.describe(field.type))\" was not provided.",
                    object.range)
            }
            if type.isOneOf { checkOneOf(object, type, keys, given) }
        case .null(let range):
            if let type = typeInfo.inputType, type.isNonNull {
                report("Expected value of type \"\(schema.describe(type))\", found null.", range)
            }
        case .variable:
            break
        default:
            check(node)
        }
    }

    override func enterObjectField(_ node: ObjectField) {
        guard typeInfo.inputType == nil, let parent = typeInfo.parentInputType?.namedType,
            schema[parent].kind == .inputObject
        else { return }
        let type = schema[parent]
        let suggestions = Suggestions.list(node.name.value, type.inputFields.map(\.name))
        report(
            "Field \"\(node.name.value)\" is not defined by type \"\(type.name)\"." + Suggestions.didYouMean(suggestions),
            node.range)
    }

    private func checkOneOf(_ node: ObjectValue, _ type: GraphQLNamedType, _ keys: [String], _ given: [String: ObjectField]) {
        guard keys.count == 1, let value = given[keys[0]]?.value else {
            report("OneOf Input Object \"\(type.name)\" must specify exactly one key.", node.range)
            return
        }
        switch value {
        case .null:
            report("Field \"\(type.name).\(keys[0])\" must be non-null.", node.range)
        case .variable(let variable):
            let name = variable.name.value
            if let definition = context.operationVariables[name], !definition.type.isNonNullReference {
                report("Variable \"\(name)\" must be non-nullable to be used for OneOf Input Object \"\(type.name)\".", node.range)
            }
        default:
            break
        }
    }

    /// A leaf value (or a list or object where a leaf or something else is expected).
    private func check(_ node: Value) {
        guard let locationType = typeInfo.inputType else { return }
        let type = schema[locationType.namedType]
        switch type.kind {
        case .scalar:
            if let message = type.coercion.literalError(node) { report(message, node.range) }
        case .enumeration:
            let valueString = Printer.print(node)
            let suggestions = Suggestions.didYouMean(
                Suggestions.list(valueString, type.enumValues.map(\.name)), subMessage: "the enum value")
            guard case .enumValue(let value) = node else {
                report("Enum \"\(type.name)\" cannot represent non-enum value: \(valueString)." + suggestions, node.range)
                return
            }
            if type.enumValue(named: value.value) == nil {
                report("Value \"\(valueString)\" does not exist in \"\(type.name)\" enum." + suggestions, node.range)
            }
        default:
            report("Expected value of type \"\(schema.describe(locationType))\", found \(Printer.print(node)).", node.range)
        }
    }
}
