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

    /// The shape Hearth's API takes in DESIGN.md (connections, payload types, subscriptions,
    /// custom scalars), standing in for `schema.graphql` until the repository has one.
    static let householdAPI = #"""
        scalar DateTime @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339")
        scalar UUID
        scalar Decimal
        scalar URL
        scalar JSON

        enum Role { OWNER ADMIN MEMBER VIEWER }
        enum StockChange { IN_STOCK OUT_OF_STOCK }
        enum TaskKind { TASK EVENT }
        enum TaskSort { DEADLINE PRIORITY CREATED TITLE }

        type PageInfo { hasNextPage: Boolean! endCursor: String }

        interface Node { id: UUID! }
        interface Timestamped { createdAt: DateTime! updatedAt: DateTime! }

        type User implements Node { id: UUID! displayName: String! avatarURL: URL email: String }
        type Member { user: User! role: Role! joinedAt: DateTime! }
        type MemberEdge { node: Member! cursor: String! }
        type MemberConnection { edges: [MemberEdge!]! pageInfo: PageInfo! totalCount: Int! }

        type Household implements Node & Timestamped {
          id: UUID!
          name: String!
          description: String
          timeZone: String!
          createdAt: DateTime!
          updatedAt: DateTime!
          members(first: Int = 20, after: String): MemberConnection!
          stores(first: Int = 20, after: String): StoreConnection!
          tasks(filter: TaskFilter, sort: TaskSort = DEADLINE, first: Int = 20, after: String): TaskConnection!
          myRole: Role
        }

        type Store implements Node { id: UUID! domain: String! name: String lastSyncedAt: DateTime products(first: Int = 50, after: String, search: String): ProductConnection! }
        type StoreEdge { node: Store! cursor: String! }
        type StoreConnection { edges: [StoreEdge!]! pageInfo: PageInfo! totalCount: Int! }
        type Product implements Node { id: UUID! title: String! vendor: String variants: [Variant!]! }
        type Variant { id: UUID! title: String! price: Decimal! compareAtPrice: Decimal available: Boolean! }
        type ProductEdge { node: Product! cursor: String! }
        type ProductConnection { edges: [ProductEdge!]! pageInfo: PageInfo! totalCount: Int! }

        type Task implements Node & Timestamped {
          id: UUID!
          kind: TaskKind!
          title: String!
          notes: String
          deadline: DateTime
          assignee: User
          labels: [Label!]!
          subtasks: [Subtask!]!
          completedAt: DateTime
          createdAt: DateTime!
          updatedAt: DateTime!
        }
        type Label { id: UUID! name: String! color: String! }
        type Subtask { id: UUID! title: String! done: Boolean! }
        type TaskEdge { node: Task! cursor: String! }
        type TaskConnection { edges: [TaskEdge!]! pageInfo: PageInfo! totalCount: Int! }

        input TaskFilter { kind: TaskKind completed: Boolean assigneeId: UUID labelIds: [UUID!] dueBefore: DateTime dueAfter: DateTime search: String }
        input CreateTaskInput { id: UUID householdId: UUID! title: String! notes: String deadline: DateTime labels: [String!] = [] }
        input HouseholdRef @oneOf { id: UUID inviteCode: String }

        type AuthPayload { token: String! expiresAt: DateTime! user: User! }
        union ChangeEvent = Task | Product | Household

        type Query {
          serverInfo: ServerInfo!
          me: User
          households(first: Int = 20, after: String): [Household!]!
          household(ref: HouseholdRef!): Household
          node(id: UUID!): Node
          searchUsers(query: String!, first: Int = 10): [User!]!
        }
        type ServerInfo { version: String! startedAt: DateTime! }
        type Mutation {
          signIn(email: String!, password: String!): AuthPayload!
          createHousehold(name: String!, description: String, timeZone: String = "UTC"): Household!
          createTask(input: CreateTaskInput!): Task!
          completeTask(id: UUID!): Task!
          addStore(householdId: UUID!, domain: String!): Store!
        }
        type Subscription {
          householdChanged(householdId: UUID!): ChangeEvent!
          priceDropped(storeId: UUID!, below: Decimal): Variant!
        }
        """#

    /// Hearth's own schema, once the repository has one (`schema.graphql` at its root).
    static var hearth: String? {
        let url = ReferenceOracle.repositoryRoot.appendingPathComponent("schema.graphql")
        return try? String(contentsOf: url, encoding: .utf8)
    }
}
