import HearthCore
import Testing

/// Each MongoDB operator CASL supports, on instances, with the values CASL's documentation uses;
/// plus dot paths, arrays, `null` against missing values, and no type coercion.
@Suite struct ConditionOperatorTests {
    typealias J = AbilityJSON

    /// Whether a rule `read Post` with `conditions` allows reading the post `fields`.
    static func allows(_ conditions: String, _ fields: String) throws -> Bool {
        try J.ability(#"[{"action": "read", "subject": "Post", "conditions": \#(conditions)}]"#)
            .can("read", J.subject("Post", fields))
    }

    @Test(arguments: [
        // $eq and plain values
        (#"{"status": "draft"}"#, #"{"status": "draft"}"#, true),
        (#"{"status": "draft"}"#, #"{"status": "published"}"#, false),
        (#"{"status": {"$eq": "draft"}}"#, #"{"status": "draft"}"#, true),
        (#"{"views": 3}"#, #"{"views": 3.0}"#, true),
        (#"{"flag": true}"#, #"{"flag": true}"#, true),
        // $ne
        (#"{"status": {"$ne": "draft"}}"#, #"{"status": "published"}"#, true),
        (#"{"status": {"$ne": "draft"}}"#, #"{"status": "draft"}"#, false),
        (#"{"status": {"$ne": "draft"}}"#, #"{}"#, true),
        // $lt $lte $gt $gte on numbers and strings
        (#"{"views": {"$lt": 10}}"#, #"{"views": 9}"#, true),
        (#"{"views": {"$lt": 10}}"#, #"{"views": 10}"#, false),
        (#"{"views": {"$lte": 10}}"#, #"{"views": 10}"#, true),
        (#"{"views": {"$gt": 10}}"#, #"{"views": 10}"#, false),
        (#"{"views": {"$gt": 10}}"#, #"{"views": 11}"#, true),
        (#"{"views": {"$gte": 10}}"#, #"{"views": 10}"#, true),
        (#"{"views": {"$gte": 10, "$lt": 20}}"#, #"{"views": 20}"#, false),
        (#"{"title": {"$gt": "b"}}"#, #"{"title": "c"}"#, true),
        (#"{"title": {"$lt": "b"}}"#, #"{"title": "B"}"#, true),
        (#"{"views": {"$lt": 10}}"#, #"{}"#, false),
        // $in $nin
        (#"{"status": {"$in": ["draft", "review"]}}"#, #"{"status": "review"}"#, true),
        (#"{"status": {"$in": ["draft", "review"]}}"#, #"{"status": "published"}"#, false),
        (#"{"tags": {"$in": ["red", "green"]}}"#, #"{"tags": ["blue", "green"]}"#, true),
        (#"{"status": {"$in": []}}"#, #"{"status": "draft"}"#, false),
        (#"{"status": {"$nin": ["draft", "review"]}}"#, #"{"status": "published"}"#, true),
        (#"{"status": {"$nin": ["draft", "review"]}}"#, #"{"status": "draft"}"#, false),
        (#"{"tags": {"$nin": ["red"]}}"#, #"{"tags": ["red", "blue"]}"#, false),
        // $all
        (#"{"tags": {"$all": ["red", "blue"]}}"#, #"{"tags": ["blue", "red", "green"]}"#, true),
        (#"{"tags": {"$all": ["red", "blue"]}}"#, #"{"tags": ["red"]}"#, false),
        (#"{"tags": {"$all": ["red"]}}"#, #"{"tags": "red"}"#, false),
        // $size
        (#"{"tags": {"$size": 2}}"#, #"{"tags": ["a", "b"]}"#, true),
        (#"{"tags": {"$size": 2}}"#, #"{"tags": ["a"]}"#, false),
        (#"{"tags": {"$size": 0}}"#, #"{}"#, false),
        // $regex with $options
        (#"{"title": {"$regex": "^Hello"}}"#, #"{"title": "Hello world"}"#, true),
        (#"{"title": {"$regex": "^hello"}}"#, #"{"title": "Hello world"}"#, false),
        (#"{"title": {"$regex": "^hello", "$options": "i"}}"#, #"{"title": "Hello world"}"#, true),
        (#"{"title": {"$regex": "^world", "$options": "m"}}"#, #"{"title": "Hello\nworld"}"#, true),
        (#"{"title": {"$regex": "^world"}}"#, #"{"title": "Hello\nworld"}"#, false),
        (#"{"title": {"$regex": "1"}}"#, #"{"title": 1}"#, false),
        (#"{"tags": {"$regex": "^gr"}}"#, #"{"tags": ["red", "green"]}"#, true),
        // $elemMatch, with a query or with operators on the elements themselves
        (#"{"comments": {"$elemMatch": {"author": "ada", "likes": {"$gt": 2}}}}"#,
         #"{"comments": [{"author": "ada", "likes": 1}, {"author": "bob", "likes": 5}]}"#, false),
        (#"{"comments": {"$elemMatch": {"author": "ada", "likes": {"$gt": 2}}}}"#,
         #"{"comments": [{"author": "bob", "likes": 1}, {"author": "ada", "likes": 5}]}"#, true),
        (#"{"scores": {"$elemMatch": {"$gte": 80, "$lt": 85}}}"#, #"{"scores": [82, 90]}"#, true),
        (#"{"scores": {"$elemMatch": {"$gte": 80, "$lt": 85}}}"#, #"{"scores": [79, 90]}"#, false),
        (#"{"scores": {"$elemMatch": {"$gte": 80}}}"#, #"{"scores": 90}"#, false),
        // $exists
        (#"{"deletedAt": {"$exists": true}}"#, #"{"deletedAt": null}"#, true),
        (#"{"deletedAt": {"$exists": true}}"#, #"{}"#, false),
        (#"{"deletedAt": {"$exists": false}}"#, #"{}"#, true),
        (#"{"author.email": {"$exists": true}}"#, #"{"author": {"email": "a@b.c"}}"#, true),
        (#"{"author.email": {"$exists": false}}"#, #"{"author": {"name": "Ada"}}"#, true),
        // the parent of a dotted $exists must exist (as in CASL)
        (#"{"author.email": {"$exists": false}}"#, #"{}"#, false),
    ])
    func operators(conditions: String, fields: String, allowed: Bool) throws {
        #expect(try Self.allows(conditions, fields) == allowed, "\(conditions) on \(fields)")
    }

    @Test(arguments: [
        // dot paths through objects
        (#"{"author.name": "Ada"}"#, #"{"author": {"name": "Ada"}}"#, true),
        (#"{"author.name": "Ada"}"#, #"{"author": {"name": "Bob"}}"#, false),
        (#"{"author.name": "Ada"}"#, #"{"author": "Ada"}"#, false),
        (#"{"author.address.city": "Paris"}"#, #"{"author": {"address": {"city": "Paris"}}}"#, true),
        // …and through arrays: the key is collected from every element
        (#"{"comments.author": "ada"}"#, #"{"comments": [{"author": "bob"}, {"author": "ada"}]}"#, true),
        (#"{"comments.author": "eve"}"#, #"{"comments": [{"author": "bob"}, {"author": "ada"}]}"#, false),
        (#"{"comments.0.author": "bob"}"#, #"{"comments": [{"author": "bob"}, {"author": "ada"}]}"#, true),
        (#"{"comments.1.author": "bob"}"#, #"{"comments": [{"author": "bob"}, {"author": "ada"}]}"#, false),
        (#"{"comments.tags": "x"}"#, #"{"comments": [{"tags": ["y"]}, {"tags": ["x"]}]}"#, true),
        // a scalar matches an array that contains it; an array never equals an array
        (#"{"tags": "red"}"#, #"{"tags": ["red", "blue"]}"#, true),
        (#"{"tags": "green"}"#, #"{"tags": ["red", "blue"]}"#, false),
        (#"{"tags": ["red", "blue"]}"#, #"{"tags": ["red", "blue"]}"#, false),
        // null matches a missing value and null, nothing else
        (#"{"deletedAt": null}"#, #"{}"#, true),
        (#"{"deletedAt": null}"#, #"{"deletedAt": null}"#, true),
        (#"{"deletedAt": null}"#, #"{"deletedAt": "2026-01-01"}"#, false),
        (#"{"deletedAt": {"$in": [null]}}"#, #"{}"#, true),
        // no coercion between JSON types
        (#"{"views": "5"}"#, #"{"views": 5}"#, false),
        (#"{"views": 5}"#, #"{"views": "5"}"#, false),
        (#"{"flag": true}"#, #"{"flag": 1}"#, false),
        (#"{"flag": 0}"#, #"{"flag": false}"#, false),
        (#"{"views": {"$lt": "10"}}"#, #"{"views": 9}"#, false),
        (#"{"views": {"$gte": 0}}"#, #"{"views": null}"#, false),
        (#"{"views": {"$gt": 0}}"#, #"{"views": true}"#, false),
        (#"{"views": {"$in": ["1"]}}"#, #"{"views": 1}"#, false),
        // strings compare exactly: no Unicode normalisation
        (#"{"name": "e\u0301"}"#, #"{"name": "\u00e9"}"#, false),
        // several fields are ANDed
        (#"{"status": "draft", "authorId": 1}"#, #"{"status": "draft", "authorId": 1}"#, true),
        (#"{"status": "draft", "authorId": 1}"#, #"{"status": "draft", "authorId": 2}"#, false),
    ])
    func pathsArraysNullsAndTypes(conditions: String, fields: String, allowed: Bool) throws {
        #expect(try Self.allows(conditions, fields) == allowed, "\(conditions) on \(fields)")
    }
}
