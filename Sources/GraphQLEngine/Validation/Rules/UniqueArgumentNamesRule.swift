/// No argument is given twice to a field or directive.
final class UniqueArgumentNamesRule: ValidationRule {
    override class var events: ValidationEvents { [.field, .directive] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.arguments) }

    override func enterField(_ node: Field) { check(node.arguments) }
    override func enterDirective(_ node: Directive, location: DirectiveLocation) { check(node.arguments) }

    private func check(_ arguments: ArraySlice<Argument>) {
        for (name, ranges) in arguments.map(\.name).duplicates {
            context.report("There can be only one argument named \"\(name)\".", ranges)
        }
    }
}
