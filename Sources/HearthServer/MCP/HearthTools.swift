import Foundation
import HearthCore
import Logging
import MCP
import Metrics

/// The household assistant's tools, for any MCP host: each a name, a JSON Schema of its
/// arguments and of its structured answer, and what it does through the same HearthCore
/// services as the GraphQL resolvers (one code path for rules, validation and events). A
/// refusal is a tool error carrying the service's message, never a protocol error.
struct HearthTools: Sendable {
    let services: HearthServices
    let logger: Logger
    /// How long one call may run before it answers with a tool error.
    var callTimeout: Duration = .seconds(30)

    /// One tool: its definition, the scope it needs, and its work.
    struct Definition: Sendable {
        var tool: Tool
        var scope: AccessScope
        var run: @Sendable (HearthTools, ToolArguments, Caller) async throws -> Answer
    }

    /// A tool's answer: short text for the person, structured content for the host.
    struct Answer: Sendable {
        var text: String
        var structured: Value
    }

    static let definitions: [Definition] = taskTools + readingTools + storeTools
    static let byName: [String: Definition] = Dictionary(uniqueKeysWithValues: definitions.map { ($0.tool.name, $0) })

    /// Runs the tool `name` for the signed-in person (an access token's scopes bound the tools),
    /// as the services' caller made once for the call; an unknown name is the only protocol error.
    func call(_ name: String, _ arguments: [String: Value]?, as signedIn: SignedIn) async throws -> CallTool.Result {
        guard let definition = Self.byName[name] else { throw MCPError.invalidParams("Unknown tool: \(name).") }
        let started = ContinuousClock.now
        let result: CallTool.Result
        var outcome = "ok"
        do {
            if let token = signedIn.accessToken, !token.allows(definition.scope) {
                throw ServiceError.forbidden("This access token may not \(definition.scope == .write ? "change anything" : "read"): \(name) needs the \(definition.scope.rawValue) scope.")
            }
            let answer = try await withTimeout(callTimeout) {
                try await definition.run(self, ToolArguments(arguments), try await services.households.caller(for: signedIn.user.id))
            }
            result = CallTool.Result(content: [.text(text: answer.text, annotations: nil, _meta: nil)], structuredContent: Optional.some(answer.structured), isError: false)
        } catch let error as ServiceError {
            outcome = "refused"
            result = Self.refusal(Self.describe(error))
        } catch is TimeoutError {
            outcome = "timeout"
            result = Self.refusal("This did not finish within \(callTimeout); a change may still have been made, so look before trying again.")
        } catch let error as PageRequestError {
            outcome = "refused"
            result = Self.refusal("Bad input in `\(error.field)`: \(error)")
        } catch {
            outcome = "failed"
            logger.error("tool failed", metadata: ["tool": "\(name)", "error": "\(ErrorText.oneLine(error))"])
            result = Self.refusal("Hearth could not do this just now (an internal error); try again later.")
        }
        let elapsed = ContinuousClock.now - started
        logger.info("tool call", metadata: [
            "tool": "\(name)", "user": "\(signedIn.user.id)", "token": "\(signedIn.accessToken.map { $0.id.uuidString } ?? "none")", "outcome": "\(outcome)",
            "ms": "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
        ])
        Counter(label: "hearth_mcp_tool_calls_total", dimensions: [("tool", name), ("outcome", outcome)]).increment()
        return result
    }

    static func refusal(_ message: String) -> CallTool.Result {
        CallTool.Result(content: [.text(text: message, annotations: nil, _meta: nil)], isError: true)
    }

    /// A service's refusal in words, naming the argument at fault as the tool spells it.
    static func describe(_ error: ServiceError) -> String {
        guard let field = error.field else { return error.message }
        return "Bad input in `\(argumentNames[field] ?? field)`: \(error.message)"
    }

    /// The API's field names as the tools' arguments.
    static let argumentNames = [
        "estimateMinutes": "estimate_minutes", "startsAt": "start", "endsAt": "end", "date": "start", "assigneeId": "assignee",
        "remindAt": "remind_at", "filter.search": "text", "filter.labelIds": "label", "taskId": "task_id", "id": "task_id",
    ]

    // MARK: Schemas

    /// An object schema with `properties` (name → schema) of which `required` must be given.
    static func object(_ properties: [String: Value], required: [String] = [], description: String? = nil) -> Value {
        var schema: [String: Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    static func string(_ description: String, nullable: Bool = false) -> Value {
        .object(["type": nullable ? .array(["string", "null"]) : "string", "description": .string(description)])
    }

    /// Text, or a value of `other` JSON type (a list is a list of strings): what small models send varies.
    static func string(_ description: String, or other: String) -> Value {
        var schema: [String: Value] = ["type": .array(["string", .string(other)]), "description": .string(description)]
        if other == "array" { schema["items"] = ["type": "string"] }
        return .object(schema)
    }

    static func enumeration(_ values: [String], _ description: String) -> Value {
        .object(["type": "string", "enum": .array(values.map { .string($0) }), "description": .string(description)])
    }

    static func array(of items: Value, _ description: String? = nil) -> Value {
        var schema: [String: Value] = ["type": "array", "items": items]
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    static let householdArgument = string("The household's name or id; may be left out when you belong to one household only.")
}
