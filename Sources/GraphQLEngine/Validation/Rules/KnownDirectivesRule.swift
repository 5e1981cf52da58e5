/// Directives are defined by the schema and used where they are allowed.
final class KnownDirectivesRule: ValidationRule {
    override class var events: ValidationEvents { [.directive] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.directives) }

    override func enterDirective(_ node: Directive, location: DirectiveLocation) {
        let name = node.name.value
        guard
            let locations = context.documentDirectives[name]?.directiveLocations
                ?? schema.directive(named: name)?.locations
        else {
            report("Unknown directive \"@\(name)\".", node.range)
            return
        }
        if !locations.contains(location) {
            report("Directive \"@\(name)\" may not be used on \(location.rawValue).", node.range)
        }
    }
}
