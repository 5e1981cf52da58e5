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
        definitions.reserveCapacity(4)  // one allocation for the usual few
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
    ///
    /// For an operation or fragment definition (nested sets are parts of their selections' records).
    mutating func parseSelectionSet() throws(GraphQLError) -> SelectionSet {
        let storage = selections.documentStorage(body: lexer.source.body)
        let (children, range) = try parseSelections()
        return SelectionSet(storage: storage, children: children, range: range)
    }

    /// `{ Selection+ }`: each selection's record is pushed on ``SelectionBuilder/records`` and filled in
    /// there as it is read; the set's records move, side by side, to the document's when it closes.
    mutating func parseSelections() throws(GraphQLError) -> (children: Range<Int32>, range: SourceRange) {
        try enterNesting()
        defer { leaveNesting() }
        let start = lexer.token.start
        try expect(.braceL)
        let first = selections.records.openCount
        repeat {
            if peek(.spread) { try parseFragment() } else { try parseField() }
        } while try !expectOptional(.braceR)
        return (selections.close(from: first), range(from: start))
    }

    /// Field : Alias? Name Arguments? Directives? SelectionSet?
    ///
    /// Its record is written in place, part by part: a record built on the stack and copied whole
    /// was read back in wide loads just after its parts were stored, which stalls.
    mutating func parseField() throws(GraphQLError) {
        let start = lexer.token.start
        let nameOrAlias = try parseSelectionName()
        let index = selections.records.openCount
        selections.records.push(SelectionNode(kind: .field, name: nameOrAlias, range: SourceRange(start: start, end: start)))
        if try expectOptional(.colon) {
            let name = try parseSelectionName()
            selections.records[open: index].alias = nameOrAlias
            selections.records[open: index].name = name
        }
        if try expectOptional(.parenL) {
            // Room for a document's usual few arguments at once, instead of a doubling per few.
            if selections.arguments.capacity == 0 { selections.arguments.reserveCapacity(16) }
            let first = Int32(selections.arguments.count)
            repeat {
                let argument = try parseArgument(constant: false)
                selections.arguments.append(argument)
            } while try !expectOptional(.parenR)
            selections.records[open: index].arguments = first..<Int32(selections.arguments.count)
        }
        try parseSelectionTail(at: index, from: start, selectionSet: .optional)
    }

    /// Whether a selection's directives are followed by a selection set.
    enum SelectionSetAfterDirectives {
        case none, optional, required
    }

    /// Directives? SelectionSet? — the rest of the selection whose open record is at `index`
    /// (`start` is where it began), written into that record.
    @inline(__always)
    mutating func parseSelectionTail(
        at index: Int, from start: Int, selectionSet: SelectionSetAfterDirectives
    ) throws(GraphQLError) {
        if peek(.at) {
            let directives = try parseSelectionDirectives()
            selections.records[open: index].directives = directives
        }
        if selectionSet == .required || (selectionSet == .optional && peek(.braceL)) {
            let (children, range) = try parseSelections()
            selections.records[open: index].children = children
            selections.records[open: index].selectionSetRange = range
        }
        selections.records[open: index].range = range(from: start)
    }

    /// A name in a selection: made from the source when asked for if it is short (no String is
    /// kept), else kept in the document's list of names.
    @inline(__always)
    mutating func parseSelectionName() throws(GraphQLError) -> NameReference {
        let token = try expect(.name)
        if token.end - token.start <= 15 && asciiStrings.layoutMatches {
            return NameReference(range: token.range, index: -1)
        }
        return NameReference(range: token.range, index: selections.add(Name(text(of: token), range: token.range)))
    }

    /// Directives : Directive+ — of a selection, kept side by side in the document's list of them:
    /// where they lie there.
    @inline(__always)
    mutating func parseSelectionDirectives() throws(GraphQLError) -> Range<Int32> {
        if selections.directives.capacity == 0 { selections.directives.reserveCapacity(8) }
        let first = Int32(selections.directives.count)
        while peek(.at) {
            let directive = try parseDirective(constant: false)
            selections.directives.append(directive)
        }
        return first..<Int32(selections.directives.count)
    }

    /// Arguments[Const] : ( Argument[?Const]+ )
    mutating func parseArguments(constant: Bool) throws(GraphQLError) -> [Argument] {
        guard try expectOptional(.parenL) else { return [] }
        var arguments: [Argument] = []
        repeat {
            arguments.append(try parseArgument(constant: constant))
        } while try !expectOptional(.parenR)
        return arguments
    }

    /// Argument[Const] : Name : Value[?Const]
    @inline(__always)
    mutating func parseArgument(constant: Bool) throws(GraphQLError) -> Argument {
        let start = lexer.token.start
        let name = try parseName()
        try expect(.colon)
        let value = try parseValue(constant: constant)
        return Argument(name: name, value: value, range: range(from: start))
    }

    /// FragmentSpread : ... FragmentName Directives?
    /// InlineFragment : ... TypeCondition? Directives? SelectionSet
    ///
    /// Its record is written in place, as a field's is.
    mutating func parseFragment() throws(GraphQLError) {
        let start = lexer.token.start
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        let index = selections.records.openCount
        // A name after `...` that is not `on` (which `expectOptionalKeyword` took) names a fragment.
        let isSpread = !hasTypeCondition && peek(.name)
        if isSpread {
            let name = try parseSelectionName()
            selections.records.push(SelectionNode(kind: .fragmentSpread, name: name, range: SourceRange(start: start, end: start)))
        } else {
            let typeCondition = hasTypeCondition ? try parseSelectionName() : NameReference.none
            selections.records.push(
                SelectionNode(kind: .inlineFragment, name: typeCondition, range: SourceRange(start: start, end: start)))
        }
        try parseSelectionTail(at: index, from: start, selectionSet: isSpread ? .none : .required)
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
