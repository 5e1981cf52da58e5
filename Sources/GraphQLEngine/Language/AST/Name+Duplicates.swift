extension Array where Element == Name {
    /// Names that occur more than once, in order of first occurrence, with where each occurs
    /// (for the "There can be only one …" rules).
    var duplicates: [(name: String, ranges: [SourceRange])] {
        guard count > 1 else { return [] }
        var groups: [String: [SourceRange]] = [:]
        var order: [String] = []
        for name in self {
            if groups[name.value] == nil { order.append(name.value) }
            groups[name.value, default: []].append(name.range)
        }
        return order.compactMap { name in
            guard let ranges = groups[name], ranges.count > 1 else { return nil }
            return (name, ranges)
        }
    }
}
