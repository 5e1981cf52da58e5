import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// Secret path segments — a calendar feed's token, an action link's, an invitation code in
/// `/join/…` — never reach the logs: the request log writes them as `…`.
@Suite struct RequestLogRedactionTests {
    @Test func secretSegmentsAreRedactedInTheRequestLog() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let token = try await server.signUp("ada@example.org")
            let url = try #require((try await server.data(#"mutation { createCalendarFeed(input: {name: "Phone"}) { url } }"#,
                                                           token: token)["createCalendarFeed"] as? [String: Any])?["url"] as? String)
            let secret = try #require(url.components(separatedBy: "/feeds/").last?.replacingOccurrences(of: ".ics", with: ""))
            #expect(try await server.client.execute(uri: "/feeds/\(secret).ics", method: .get, headers: [:], body: nil).status == .ok)
            _ = try await server.client.execute(uri: "/actions/actionsecret123?x=querysecret", method: .post, headers: [:], body: nil)
            _ = try await server.client.execute(uri: "/join/invitationsecret", method: .get, headers: [:], body: nil)
            let lines = server.log.lines.withLock { $0 }.filter { $0.contains(" request ") }
            #expect(lines.contains { $0.contains("path=/feeds/…ics") }, "\(lines)")
            #expect(lines.contains { $0.contains("path=/actions/…") } && lines.contains { $0.contains("path=/join/…") }, "\(lines)")
            for secret in [secret, "actionsecret123", "querysecret", "invitationsecret"] {
                #expect(!server.log.lines.withLock { $0 }.contains { $0.contains(secret) }, "\(secret) is in the log")
            }
        }
    }

    @Test(arguments: [
        ("/feeds/abc.ics", "/feeds/…ics"), ("/actions/abc", "/actions/…"), ("/join/abc", "/join/…"), ("/feeds/abc/extra", "/feeds/…/extra"),
        ("/feeds", "/feeds"), ("/feeds/", "/feeds/…"), ("/tasks/abc", "/tasks/abc"), ("/graphql", "/graphql"), ("/", "/"),
    ])
    func paths(path: String, logged: String) {
        #expect(RequestLogMiddleware<BasicRequestContext>.loggable(path) == logged)
    }
}
