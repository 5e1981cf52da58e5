extension Parser {
    /// Value[Const] : Variable (unless Const) | IntValue | FloatValue | StringValue | BooleanValue
    ///              | NullValue | EnumValue | ListValue[?Const] | ObjectValue[?Const]
    mutating func parseValue(constant: Bool) throws(GraphQLError) -> Value {
        let token = lexer.token
        switch token.kind {
        case .bracketL:
            return .list(try parseList(constant: constant))
        case .braceL:
            return .object(try parseObject(constant: constant))
        case .int:
            try advance()
            return .int(IntValue(value: text(of: token), range: token.range))
        case .float:
            try advance()
            return .float(FloatValue(value: text(of: token), range: token.range))
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advance()
            if isKeyword(token, "true") { return .boolean(BooleanValue(value: true, range: token.range)) }
            if isKeyword(token, "false") { return .boolean(BooleanValue(value: false, range: token.range)) }
            if isKeyword(token, "null") { return .null(token.range) }
            return .enumValue(EnumValue(value: text(of: token), range: token.range))
        case .dollar:
            if constant {
                try expect(.dollar)
                if lexer.token.kind == .name {
                    throw error(at: token.start, "Unexpected variable \"$\(text(of: lexer.token))\" in constant value.")
                }
                throw unexpected(token)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected()
        }
    }

    /// ListValue[Const] : [ ] | [ Value[?Const]+ ]
    mutating func parseList(constant: Bool) throws(GraphQLError) -> ListValue {
        try enterNesting()
        defer { leaveNesting() }
        let start = lexer.token.start
        try expect(.bracketL)
        var values: [Value] = []
        if !peek(.bracketR) { values.reserveCapacity(4) }  // one allocation for a short list, not one per doubling
        while try !expectOptional(.bracketR) {
            values.append(try parseValue(constant: constant))
        }
        return ListValue(values: values, range: range(from: start))
    }

    /// ObjectValue[Const] : { } | { ObjectField[?Const]+ }
    mutating func parseObject(constant: Bool) throws(GraphQLError) -> ObjectValue {
        try enterNesting()
        defer { leaveNesting() }
        let start = lexer.token.start
        try expect(.braceL)
        var fields: [ObjectField] = []
        if !peek(.braceR) { fields.reserveCapacity(4) }
        while try !expectOptional(.braceR) {
            let fieldStart = lexer.token.start
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(constant: constant)
            fields.append(ObjectField(name: name, value: value, range: range(from: fieldStart)))
        }
        return ObjectValue(fields: fields, range: range(from: start))
    }

    /// Directives[Const] : Directive[?Const]+
    mutating func parseDirectives(constant: Bool) throws(GraphQLError) -> [Directive] {
        guard peek(.at) else { return [] }
        var directives: [Directive] = []
        repeat {
            directives.append(try parseDirective(constant: constant))
        } while peek(.at)
        return directives
    }

    /// Directive[Const] : @ Name Arguments[?Const]?
    mutating func parseDirective(constant: Bool) throws(GraphQLError) -> Directive {
        let start = lexer.token.start
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArguments(constant: constant)
        return Directive(name: name, arguments: arguments[...], range: range(from: start))
    }

    /// Type : NamedType | ListType | NonNullType
    mutating func parseTypeReference() throws(GraphQLError) -> TypeReference {
        let start = lexer.token.start
        let nullable: NullableType
        if peek(.bracketL) {
            try enterNesting()
            defer { leaveNesting() }
            try advance()
            let inner = try parseTypeReference()
            try expect(.bracketR)
            nullable = .list(inner, range: range(from: start))
        } else {
            nullable = .named(try parseNamedType())
        }
        if try expectOptional(.bang) {
            return .nonNull(nullable, range: range(from: start))
        }
        return nullable.typeReference
    }

    /// NamedType : Name
    @inline(__always)
    mutating func parseNamedType() throws(GraphQLError) -> NamedType {
        NamedType(name: try parseName())
    }
}
