extension Parser {
    /// OperationDefinition : Description? OperationType Name? VariablesDefinition? Directives? SelectionSet
    ///                     | SelectionSet
    mutating func parseOperationDefinition() throws(GraphQLError) -> OperationDefinition {
        let start = lexer.token.start
        if peek(.braceL) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(
                description: nil, operation: .query, name: nil, variableDefinitions: [], directives: [],
                selectionSet: selectionSet, range: range(from: start))
        }
        let description = try parseDescription()
        let operation = try parseOperationType()
        let name: Name? = peek(.name) ? try parseName() : nil
        let variableDefinitions = try parseVariableDefinitions()
        let directives = try parseDirectives(constant: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            description: description, operation: operation, name: name, variableDefinitions: variableDefinitions,
            directives: directives, selectionSet: selectionSet, range: range(from: start))
    }

    /// OperationType : one of `query` `mutation` `subscription`
    mutating func parseOperationType() throws(GraphQLError) -> OperationType {
        let token = try expect(.name)
        if isKeyword(token, "query") { return .query }
        if isKeyword(token, "mutation") { return .mutation }
        if isKeyword(token, "subscription") { return .subscription }
        throw unexpected(token)
    }

    /// VariablesDefinition : ( VariableDefinition+ )
    mutating func parseVariableDefinitions() throws(GraphQLError) -> [VariableDefinition] {
        guard try expectOptional(.parenL) else { return [] }
        var definitions: [VariableDefinition] = []
        repeat {
            definitions.append(try parseVariableDefinition())
        } while try !expectOptional(.parenR)
        return definitions
    }

    /// VariableDefinition : Description? Variable : Type DefaultValue? Directives[Const]?
    mutating func parseVariableDefinition() throws(GraphQLError) -> VariableDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        let variable = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue: Value? = try expectOptional(.equals) ? try parseValue(constant: true) : nil
        let directives = try parseDirectives(constant: true)
        return VariableDefinition(
            description: description, variable: variable, type: type, defaultValue: defaultValue,
            directives: directives, range: range(from: start))
    }

    /// Variable : $ Name
    mutating func parseVariable() throws(GraphQLError) -> Variable {
        let start = lexer.token.start
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, range: range(from: start))
    }

    /// SelectionSet : { Selection+ }
    mutating func parseSelectionSet() throws(GraphQLError) -> SelectionSet {
        try enterNesting()
        defer { leaveNesting() }
        let start = lexer.token.start
        try expect(.braceL)
        var selections: [Selection] = []
        // Most selection sets hold a few fields: one allocation instead of three doublings.
        selections.reserveCapacity(4)
        repeat {
            selections.append(try parseSelection())
        } while try !expectOptional(.braceR)
        return SelectionSet(selections: selections, range: range(from: start))
    }

    /// Selection : Field | FragmentSpread | InlineFragment
    @inline(__always)
    mutating func parseSelection() throws(GraphQLError) -> Selection {
        peek(.spread) ? try parseFragment() : .field(try parseField())
    }

    /// Field : Alias? Name Arguments? Directives? SelectionSet?
    mutating func parseField() throws(GraphQLError) -> Field {
        let start = lexer.token.start
        let nameOrAlias = try parseName()
        var alias: Name? = nil
        var name = nameOrAlias
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        }
        let arguments = try parseArguments(constant: false)
        let directives = try parseDirectives(constant: false)
        let selectionSet: SelectionSet? = peek(.braceL) ? try parseSelectionSet() : nil
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
            range: range(from: start))
    }

    /// Arguments[Const] : ( Argument[?Const]+ )
    mutating func parseArguments(constant: Bool) throws(GraphQLError) -> [Argument] {
        guard try expectOptional(.parenL) else { return [] }
        var arguments: [Argument] = []
        repeat {
            let start = lexer.token.start
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(constant: constant)
            arguments.append(Argument(name: name, value: value, range: range(from: start)))
        } while try !expectOptional(.parenR)
        return arguments
    }

    /// FragmentSpread : ... FragmentName Directives?
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    mutating func parseFragment() throws(GraphQLError) -> Selection {
        let start = lexer.token.start
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(constant: false)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, range: range(from: start)))
        }
        let typeCondition: NamedType? = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(constant: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(
                typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
                range: range(from: start)))
    }

    /// FragmentDefinition : Description? fragment FragmentName TypeCondition Directives? SelectionSet
    mutating func parseFragmentDefinition() throws(GraphQLError) -> FragmentDefinition {
        let start = lexer.token.start
        let description = try parseDescription()
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(constant: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            description: description, name: name, typeCondition: typeCondition, directives: directives,
            selectionSet: selectionSet, range: range(from: start))
    }

    /// FragmentName : Name but not `on`
    mutating func parseFragmentName() throws(GraphQLError) -> Name {
        if hasValue(lexer.token, "on") { throw unexpected() }
        return try parseName()
    }
}
