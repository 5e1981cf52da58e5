import Foundation
import HTTPTypes
import HearthServer
import HearthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// How Hearth serves the household app (`web/`): the page at every client route, the API's routes
/// untouched, assets under their build with a year of caching, a strict Content-Security-Policy.
@Suite struct WebAppServingTests {
    static let directory = GQLClientTests.root.appendingPathComponent("web").path

    static func withServer(_ body: @escaping @Sendable (any TestClientProtocol, WebApp) async throws -> Void) async throws {
        let webApp = try WebApp(directory: directory)
        try await withTestDatabase { database, _ throws in
            let runtime = try HearthRuntime.testing(on: database)
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: 0, webApp: webApp), dependencies: runtime.dependencies, logger: TestPostgres.logger)
            try await app.test(.live) { client throws in try await body(client, webApp) }
        }
    }

    @Test func theAppIsServedAtEveryClientRouteWithAStrictPolicy() async throws {
        try await Self.withServer { client, webApp in
            for path in ["/", "/agenda", "/tasks/0f8fad5b-d9cb-469f-a165-70867728950e", "/join/abc-DEF_123", "/notifications/x", "/graphqlx"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(path)")
                #expect(response.headers[.cacheControl] == "no-cache", "\(path)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(path)")
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'") && policy.contains("style-src 'self'"), "\(policy)")
                #expect(policy.contains("connect-src 'self' ws://"), "\(policy)")
                #expect(!policy.contains("unsafe-inline"), "\(policy)")
                let html = String(buffer: response.body)
                #expect(html.contains("/assets/\(webApp.build)/app/main.js"), "the page names this build's script")
                #expect(!html.contains(WebApp.buildPlaceholder))
                #expect(!html.contains("<script>") && !html.contains("style="), "no inline script or style")
            }
            // The WebSocket is named with the host the page came from; one that is not a plain host[:port] is left out.
            let port = try #require(client.port)
            let named = try await RawConnection.exchange(port: port, "GET /agenda HTTP/1.1\r\nHost: hearth.local:8080\r\nConnection: close\r\n\r\n", wait: .seconds(10))
            #expect(named.text.contains("connect-src 'self' ws://hearth.local:8080 wss://hearth.local:8080;"), "\(named)")
            let odd = try await RawConnection.exchange(port: port, "GET / HTTP/1.1\r\nHost: evil.example; script-src *\r\nConnection: close\r\n\r\n", wait: .seconds(10))
            #expect(odd.status == 200 && !odd.text.contains("evil"), "\(odd)")
            // HEAD answers the headers alone; a matching ETag answers 304.
            let head = try await client.execute(uri: "/tasks", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(webApp.index.bytes.count))
            let tag = try #require(head.headers[.eTag])
            let again = try await client.execute(uri: "/tasks", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
        }
    }

    @Test func assetsLiveUnderTheirBuildAndTheAPIKeepsItsRoutes() async throws {
        try await Self.withServer { client, webApp in
            let script = try await client.execute(uri: "/assets/\(webApp.build)/app/main.js", method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(script.body.readableBytes == webApp.files["app/main.js"]?.bytes.count)
            let style = try await client.execute(uri: "/assets/\(webApp.build)/app/styles/app.css", method: .get)
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")
            let manifest = try await client.execute(uri: "/assets/\(webApp.build)/manifest.webmanifest", method: .get)
            #expect(manifest.headers[.contentType] == "application/manifest+json")
            // Another build's files, unknown files and climbing out of the directory: 404, never the page.
            for path in ["/assets/0123456789abcdef/app/main.js", "/assets/\(webApp.build)/app/missing.js",
                         "/assets/\(webApp.build)/../Package.swift", "/assets/\(webApp.build)/%2e%2e/Package.swift"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
            }
            // The service worker: at the root, never cached, naming this build; its list is the shell without the tests.
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.status == .ok && worker.headers[.cacheControl] == "no-cache")
            #expect(String(buffer: worker.body).contains("const BUILD = \"\(webApp.build)\""))
            let list = try await client.execute(uri: "/assets/\(webApp.build)/precache.json", method: .get)
            let urls = try #require(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String])
            #expect(urls.contains("/") && urls.contains("/assets/\(webApp.build)/app/main.js"))
            #expect(!urls.contains { $0.contains("/test/") || $0.hasSuffix("sw.js") })
            // API routes are not the app's: GraphQL over GET, health, metrics, and unknown admin paths.
            let graphQL = try await client.execute(uri: "/graphql?query=%7B__typename%7D", method: .get, headers: [.accept: "application/json"])
            #expect(String(buffer: graphQL.body).contains("\"__typename\":\"Query\""))
            #expect(try await client.execute(uri: "/healthz", method: .get).headers[.contentType] != "text/html; charset=utf-8")
            #expect(try await client.execute(uri: "/admin/nothing", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/graphql/extra", method: .get).status == .notFound)
            // The app's pages are for reading: other methods are not allowed on them.
            #expect(try await client.execute(uri: "/tasks", method: .post).status != .ok)
        }
    }

    @Test func aDirectoryThatIsNotTheAppIsRefusedByName() throws {
        try withTemporaryDirectorySync { path in
            try Data("<p>hi</p>".utf8).write(to: URL(fileURLWithPath: path + "/index.html"))
            #expect {
                try WebApp(directory: path)
            } throws: { error in
                "\(error)".contains("is not the household app: index.html or sw.js is missing")
            }
            try Data("const BUILD = \"%BUILD%\";".utf8).write(to: URL(fileURLWithPath: path + "/sw.js"))
            let app = try WebApp(directory: path)
            #expect(String(decoding: app.serviceWorker.bytes, as: UTF8.self) == "const BUILD = \"\(app.build)\";")
            // Any change to any file is a new build.
            try Data("<p>hello</p>".utf8).write(to: URL(fileURLWithPath: path + "/index.html"))
            #expect(try WebApp(directory: path).build != app.build)
        }
    }

    func withTemporaryDirectorySync(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "hearth-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }
}
