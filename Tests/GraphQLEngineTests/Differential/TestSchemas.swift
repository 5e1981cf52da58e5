import Foundation

/// Schemas for the validation tests and the differential test.
enum TestSchemas {
    /// A household-flavoured schema with every kind of type: interfaces implementing interfaces,
    /// unions, enums, input objects (nested, recursive, `@oneOf`), lists, non-null, custom scalars
    /// with `@specifiedBy`, arguments with defaults, deprecations and custom directives.
    static let zoo = #"""
        """A thing with a global id."""
        interface Node { id: ID! }

        interface Named { name(upper: Boolean = false): String }

        interface Pet implements Node & Named {
          id: ID!
          name(upper: Boolean = false): String
          owner: Person
          nicknames: [String!]
        }

        type Dog implements Pet & Node & Named {
          id: ID!
          name(upper: Boolean = false): String
          owner: Person
          nicknames: [String!]
          barkVolume: Int
          doesKnowCommand(command: Command!): Boolean!
          isHousetrained(atOtherHomes: Boolean = true): Boolean
        }

        type Cat implements Pet & Node & Named {
          id: ID!
          name(upper: Boolean = false): String
          owner: Person
          nicknames: [String!]!
          meowVolume: Int
          lives: Int!
          furColor: Color
        }

        type Person implements Node & Named {
          id: ID!
          name(upper: Boolean = false): String
          pets(first: Int = 10, kind: PetKind): [Pet!]!
          friends: [Person]
          household: Household
          bestFriend: Being
          age: Int @deprecated(reason: "Use birthday.")
          birthday: DateTime
        }

        type Household implements Node {
          id: ID!
          title: String!
          members: [Person!]!
          tasks(filter: TaskFilter, sort: [TaskSort!] = [DEADLINE]): [Task!]!
        }

        type Task implements Node {
          id: ID!
          title: String!
          done: Boolean!
          deadline: DateTime
          priority: Priority
          estimate: Float
          labels: [String!]!
          name: Int
        }

        union Being = Dog | Cat | Person
        union SearchResult = Household | Task | Person

        enum Command { SIT HEEL DOWN }
        enum Color { BROWN BLACK TAN SPOTTED }
        enum PetKind { DOG CAT }
        enum Priority { NONE LOW MEDIUM HIGH }
        enum TaskSort { DEADLINE PRIORITY CREATED TITLE }

        scalar DateTime @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339")

        input TaskFilter {
          done: Boolean
          assignee: ID
          dueBefore: DateTime
          labels: [String!]
          priority: [Priority!]
          text: String = ""
        }

        input TaskInput {
          title: String!
          deadline: DateTime
          priority: Priority = NONE
          estimate: Float
          labels: [String!] = []
        }

        input PetLookup @oneOf { id: ID name: String owner: PersonRef }
        input PersonRef @oneOf { id: ID email: String }

        input Complex {
          int: Int
          nonNullInt: Int!
          string: String
          bool: Boolean
          float: Float
          id: ID
          enum: Color
          list: [String]
          nonNullList: [Int!]!
          nested: Complex
        }

        type Query {
          node(id: ID!): Node
          pet(lookup: PetLookup!): Pet
          person(id: ID): Person
          me: Person
          being(id: ID!): Being
          search(text: String!, first: Int): [SearchResult!]!
          households: [Household!]!
          complicated(arg: Complex, int: Int, nonNullInt: Int!, list: [Int], ids: [ID!], color: Color, flag: Boolean! = false): String
          dog: Dog
          cat: Cat
        }

        type Mutation {
          createTask(householdId: ID!, input: TaskInput!): Task
          completeTask(id: ID!): Task
          renamePet(lookup: PetLookup!, name: String!): Pet
        }

        type Subscription {
          taskChanged(householdId: ID!): Task
          petAdopted: Pet
        }

        directive @cached(ttl: Int!) on FIELD | QUERY
        directive @tag(name: String!) repeatable on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        """#

    /// Hearth's own schema, once the repository has one (`schema.graphql` at its root).
    static var hearth: String? {
        let url = ReferenceOracle.repositoryRoot.appendingPathComponent("schema.graphql")
        return try? String(contentsOf: url, encoding: .utf8)
    }
}
