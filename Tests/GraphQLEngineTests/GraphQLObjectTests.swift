import Testing

@testable import GraphQLEngine

@Suite("GraphQL objects")
struct GraphQLObjectTests {
    @Test("a literal keeps its keys in order, and a repeated key its first position and last value")
    func literals() {
        let object: GraphQLObject = ["b": 1, "a": "x", "b": 2, "c": [1, 2]]
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["b"] == 2)
        #expect(object["c"] == [1, 2])
        let value: GraphQLValue = ["id": 7, "name": "n"]
        #expect(value == .object(GraphQLObject([(key: "id", value: .int(7)), (key: "name", value: .string("n"))])))
    }

    @Test("an object made from a literal grows and changes like any other")
    func literalsChange() {
        var object: GraphQLObject = ["a": 1]
        for index in 0..<40 { object["k\(index)"] = .int(index) }
        object["a"] = nil
        object["k3"] = "three"
        #expect(object.count == 40)
        #expect(object.keys.first == "k0")
        #expect(object["k3"] == "three")
        #expect(object["k39"] == 39)
        // Copies made before a change keep their values.
        let copy = object
        object["k0"] = .null
        #expect(copy["k0"] == 0)
        #expect(object["k0"] == .null)
    }
}
