import Testing

@testable import GraphQLEngine

/// A list of host values too large to sit unboxed in an existential is held as places in the
/// list (``ListElement``); every reader still sees the values themselves: typed field tables,
/// type resolvers, the default resolver's reflection, `__typename` of a named host, and leaves.
@Suite struct ListElementTests {
    /// Four words and more: what `.objects` holds by its place in the list.
    struct Parcel: Sendable, GraphQLTypeNamed {
        var label: String
        var sender: String
        var grams: Int
        var graphQLTypeName: String { "Parcel" }
    }

    /// Reflected by the default resolver (no field table).
    struct Letter: Sendable, GraphQLTypeNamed {
        var label: String
        var sender: String
        var stamps: Int
        var graphQLTypeName: String { "Letter" }
    }

    enum Size: String, Sendable {
        case small, large
    }

    /// A leaf of four words: an enum value with a note.
    struct SizeTag: Sendable, GraphQLLeafRepresentable {
        var size: Size
        var note: String
        var by: String
        var graphQLValue: GraphQLValue { .string(size.rawValue.uppercased()) }
    }

    static let sdl = """
        type Query { parcels: [Parcel!]!, letters: [Letter!]!, post: [Post!]!, mail: [Mail!]!, sizes: [Size!]! }
        type Parcel { label: String!, grams: Int! }
        type Letter { label: String!, sender: String!, stamps: Int! }
        union Post = Parcel | Letter
        union Mail = Parcel | Letter
        enum Size { SMALL LARGE }
        """

    static let parcels = [Parcel(label: "books", sender: "Ann", grams: 1200), Parcel(label: "socks", sender: "Bo", grams: 80)]
    static let letters = [Letter(label: "card", sender: "Cy", stamps: 1), Letter(label: "bill", sender: "Di", stamps: 2)]

    static func resolvers() -> Resolvers {
        var resolvers = Resolvers(defaultResolution: .types(["Letter"]))
        resolvers.field("Query.parcels") { _ in .objects(parcels) }
        resolvers.field("Query.letters") { _ in .objects(letters) }
        resolvers.field("Query.post") { _ in .list(Resolved.objects(parcels).listItems + Resolved.objects(letters).listItems) }
        resolvers.field("Query.mail") { _ in .list(Resolved.objects(letters).listItems + Resolved.objects(parcels).listItems) }
        resolvers.field("Query.sizes") { _ in .objects([SizeTag(size: .large, note: "", by: "Ann"), SizeTag(size: .small, note: "", by: "Bo")]) }
        // Post: each value names its type (GraphQLTypeNamed); Mail: a type resolver casts.
        resolvers.typeResolver("Mail") { value, _ in
            if value.object(as: Letter.self) != nil { return "Letter" }
            if value.object(as: Parcel.self) != nil { return "Parcel" }
            return nil
        }
        resolvers.object("Parcel", Parcel.self) { parcel in
            parcel.field("label") { .string($0.label) }
            parcel.field("grams") { .int($0.grams) }
        }
        return resolvers
    }

    @Test func largeValuesAreHeldByTheirPlace() {
        guard case .list(let items) = Resolved.objects(Self.parcels), case .object(let first) = items[0] else {
            Issue.record("objects did not make a list of host values")
            return
        }
        #expect(first is ListElement<Parcel>)
        #expect(Resolved.objects(Self.parcels)[1]?.object(as: Parcel.self)?.label == "socks")
        // Small values sit in the existential as they are.
        guard case .list(let sizes) = Resolved.objects([Size.small]), case .object(let size) = sizes[0] else {
            Issue.record("objects did not make a list of host values")
            return
        }
        #expect(size is Size)
    }

    @Test func everyReaderSeesTheValuesThemselves() async throws {
        let harness = try ExecutionHarness(Self.sdl, resolvers: Self.resolvers())
        let response = try await harness.plain("""
            { parcels { label grams } letters { label sender stamps }
              post { __typename ... on Parcel { grams } ... on Letter { stamps } }
              mail { __typename ... on Parcel { label } ... on Letter { sender } } sizes }
            """)
        #expect(response == json("""
            {"data":{"parcels":[{"label":"books","grams":1200},{"label":"socks","grams":80}],
            "letters":[{"label":"card","sender":"Cy","stamps":1},{"label":"bill","sender":"Di","stamps":2}],
            "post":[{"__typename":"Parcel","grams":1200},{"__typename":"Parcel","grams":80},
            {"__typename":"Letter","stamps":1},{"__typename":"Letter","stamps":2}],
            "mail":[{"__typename":"Letter","sender":"Cy"},{"__typename":"Letter","sender":"Di"},
            {"__typename":"Parcel","label":"books"},{"__typename":"Parcel","label":"socks"}],"sizes":["LARGE","SMALL"]}}
            """))
    }
}

extension Resolved {
    /// The items of a `.list` (empty otherwise).
    fileprivate var listItems: [Resolved] {
        if case .list(let items) = self { return items }
        return []
    }

    fileprivate subscript(index: Int) -> Resolved? {
        listItems.indices.contains(index) ? listItems[index] : nil
    }
}
