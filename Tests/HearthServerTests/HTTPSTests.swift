import AsyncHTTPClient
import Foundation
import HearthServer
import HearthTestSupport
import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Where openssl is, to make certificates.
private let opensslPath = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// `hearth serve --tls-cert-file --tls-key-file`: HTTPS with a certificate the test makes
/// (openssl), a renewed pair served after SIGHUP without a restart, and a bad pair refused at
/// start naming the file.
@Suite(.enabled(if: opensslPath != nil || GQLClientTests.isCI, "SKIPPED: needs openssl to make certificates (make test installs it)"))
struct HTTPSTests {
    static let openssl = opensslPath

    /// A self-signed certificate for 127.0.0.1 and its key, written as PEM files in `directory`.
    static func makeCertificate(_ directory: String, _ name: String) async throws -> (certificate: String, key: String) {
        let openssl = try #require(Self.openssl, "openssl is missing (Debian: apt-get install openssl)")
        let (certificate, key) = ("\(directory)/\(name).pem", "\(directory)/\(name).key")
        let result = try await ChildProcess.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=\(name)", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        try #require(result.status == 0, "openssl failed: \(result.text)")
        return (certificate, key)
    }

    /// GET `path` over HTTPS, trusting only `certificate`: the status.
    static func get(_ port: Int, _ path: String, trusting certificate: String) async throws -> UInt {
        try await response(port, path, trusting: certificate).status
    }

    /// GET `path` over HTTPS, trusting only `certificate`: the status and the headers.
    static func response(_ port: Int, _ path: String, trusting certificate: String) async throws -> (status: UInt, headers: HTTPHeaders) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        // A new client each time: a new connection, so a new handshake.
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        do {
            let response = try await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)\(path)"), timeout: .seconds(10))
            try await client.shutdown()
            return (response.status.code, response.headers)
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    /// Two certificates for 127.0.0.1 ("first" and "renewed") and the pair Hearth is given
    /// (`hearth.pem`, `hearth.key`, a copy of the first); `renew()` writes the renewed pair over it.
    struct Pairs {
        let first: (certificate: String, key: String)
        let renewed: (certificate: String, key: String)
        let certificate: String, key: String

        init(in dir: String) async throws {
            first = try await HTTPSTests.makeCertificate(dir, "first")
            renewed = try await HTTPSTests.makeCertificate(dir, "renewed")
            (certificate, key) = ("\(dir)/hearth.pem", "\(dir)/hearth.key")
            try FileManager.default.copyItem(atPath: first.certificate, toPath: certificate)
            try FileManager.default.copyItem(atPath: first.key, toPath: key)
        }

        /// Renewed in place, as a certificate tool writes it.
        func renew() throws {
            for (from, to) in [(renewed.certificate, certificate), (renewed.key, key)] {
                try FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
        }
    }

    @Test func servesHTTPSAndAReloadedPairAfterSIGHUP() async throws {
        try await withTemporaryDirectory { dir throws in
            let pairs = try await Pairs(in: dir)
            let (first, renewed, key) = (pairs.first, pairs.renewed, pairs.key)
            let env = ["HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0", "HEARTH_TLS_CERT_FILE": pairs.certificate, "HEARTH_TLS_KEY_FILE": key]
            let server = try HearthProcess(["serve"], environment: env)
            let port = try await server.waitUntilListening()
            #expect(server.stdout.contains("listening on https://127.0.0.1:"))
            #expect(try await Self.get(port, "/readyz", trusting: first.certificate) == 200)
            // Every HTTPS answer says Strict-Transport-Security, errors too.
            for path in ["/healthz", "/no-such-page", "/graphql"] {
                let headers = try await Self.response(port, path, trusting: first.certificate).headers
                #expect(headers["Strict-Transport-Security"] == ["max-age=31536000"], "\(path): \(headers)")
            }
            await #expect(throws: (any Error).self, "a client trusting only the renewed certificate refuses the first") {
                _ = try await Self.get(port, "/healthz", trusting: renewed.certificate)
            }

            // Renewed in place, then SIGHUP: the next connection gets the new pair.
            try pairs.renew()
            server.send(SIGHUP)
            #expect(await server.waitForOutput(.seconds(30)) { $0.contains("TLS certificate reloaded") }, "\(server.stderr)")
            #expect(try await Self.get(port, "/readyz", trusting: renewed.certificate) == 200)
            await #expect(throws: (any Error).self) { _ = try await Self.get(port, "/healthz", trusting: first.certificate) }

            // A bad pair on SIGHUP is logged and the served one stays.
            try Data("not a key".utf8).write(to: URL(fileURLWithPath: key))
            server.send(SIGHUP)
            #expect(await server.waitForOutput(.seconds(30)) { $0.contains("TLS certificate not reloaded") }, "\(server.stderr)")
            #expect(try await Self.get(port, "/healthz", trusting: renewed.certificate) == 200)

            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0, "stderr:\n\(server.stderr)")
        }
    }

    /// A renewed certificate that has expired or is not yet valid is refused on reload, naming why,
    /// and the served one stays.
    @Test func aRenewalOutsideItsValidityIsRefused() async throws {
        try await withTemporaryDirectory { dir throws in
            let pair = try await Self.makeCertificate(dir, "hearth")
            // The certificate is valid for two days from now: a day before, or three days after, it is not.
            let certificate = try TLSCertificate(certificateFile: pair.certificate, keyFile: pair.key)
            do throws(TLSCertificate.LoadError) {
                try certificate.reload(now: Date().addingTimeInterval(3 * 86_400))
                Issue.record("an expired certificate was taken")
            } catch {
                #expect(error.description.hasPrefix("--tls-cert-file \(pair.certificate): its certificate expired at "), "\(error.description)")
            }
            do throws(TLSCertificate.LoadError) {
                try certificate.reload(now: Date().addingTimeInterval(-86_400))
                Issue.record("a certificate not yet valid was taken")
            } catch {
                #expect(error.description.hasPrefix("--tls-cert-file \(pair.certificate): its certificate is not valid until "), "\(error.description)")
            }
            try certificate.reload(now: Date())
        }
    }

    @Test func aBadPairStopsTheStartNamingTheFile() async throws {
        try await withTemporaryDirectory { dir throws in
            let one = try await Self.makeCertificate(dir, "one")
            let other = try await Self.makeCertificate(dir, "other")
            for (certificate, key, expected) in [
                (one.certificate, other.key, "is not the private key of the certificate in --tls-cert-file \(one.certificate)"),
                ("\(dir)/missing.pem", one.key, "--tls-cert-file \(dir)/missing.pem: it cannot be read"),
                (one.certificate, one.certificate, "--tls-key-file \(one.certificate): it is not a PEM private key"),
            ] {
                let hearth = try HearthProcess(["serve", "--port", "0", "--tls-cert-file", certificate, "--tls-key-file", key],
                                               environment: ["HEARTH_DATA_DIR": dir + "/pg"])
                #expect(try await hearth.waitForExit().status != 0)
                #expect(hearth.stderr.contains(expected), "\(hearth.stderr)")
            }
            let half = try HearthProcess(["serve", "--port", "0", "--tls-cert-file", one.certificate], environment: ["HEARTH_DATA_DIR": dir + "/pg"])
            #expect(try await half.waitForExit().status != 0)
            #expect(half.stderr.contains("--tls-cert-file needs --tls-key-file"), "\(half.stderr)")
        }
    }

    /// The base64 SHA-256 of a certificate's public key (SPKI), as Chromium's
    /// `--ignore-certificate-errors-spki-list` names the keys it trusts.
    static func spkiHash(_ certificate: String) async throws -> String {
        let openssl = try #require(Self.openssl, "openssl is missing (Debian: apt-get install openssl)")
        let result = try await ChildProcess.run("/bin/sh", ["-c",
            "\"$0\" x509 -in \"$1\" -pubkey -noout | \"$0\" pkey -pubin -outform der | \"$0\" dgst -sha256 -binary | base64", openssl, certificate])
        try #require(result.status == 0, "openssl failed: \(result.text)")
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: WebAppBrowserTests.hasBrowser || GQLClientTests.isCI,
                   "SKIPPED: needs Chromium (/usr/bin/chromium) and Playwright in .build/python-web (make test installs them)"))
    func theAppWorksOverHTTPSInChromiumAndARenewedCertificateIsServedAfterSIGHUP() async throws {
        try #require(WebAppBrowserTests.hasBrowser, "Chromium or Playwright is missing (make test installs them: chromium, .build/python-web)")
        try await withTemporaryDirectory { dir throws in
            let pairs = try await Pairs(in: dir)
            let trusted = [try await Self.spkiHash(pairs.first.certificate), try await Self.spkiHash(pairs.renewed.certificate)].joined(separator: ",")
            let server = try HearthProcess(["serve"], environment: [
                "HEARTH_DATA_DIR": dir + "/pg", "HEARTH_PORT": "0", "HEARTH_TLS_CERT_FILE": pairs.certificate, "HEARTH_TLS_KEY_FILE": pairs.key,
                "HEARTH_WEB_DIR": WebAppBrowserTests.root.appendingPathComponent("web").path,
            ])
            let port = try await server.waitUntilListening()
            func browse(_ commonName: String, _ mode: String) async throws -> [String] {
                let result = try await ChildProcess.run(WebAppBrowserTests.python, [
                    WebAppBrowserTests.root.appendingPathComponent("scripts/web/https.py").path, "https://127.0.0.1:\(port)", trusted, commonName, mode,
                ])
                let report = (try? JSONSerialization.jsonObject(with: result.stdout)) as? [String: Any]
                try #require(result.status == 0, "the HTTPS run failed \(report?["failed"] ?? ""):\n\(result.text.suffix(6000))\n\(server.stderr.suffix(3000))")
                return report?["steps"] as? [String] ?? []
            }
            #expect(try await browse("first", "sign-up") == [
                "the app loads over HTTPS with the certificate first", "its service worker registers", "the poke socket connects over WSS",
            ])

            try pairs.renew()
            server.send(SIGHUP)
            #expect(await server.waitForOutput(.seconds(30)) { $0.contains("TLS certificate reloaded") }, "\(server.stderr)")
            #expect(try await browse("renewed", "again") == ["the app loads over HTTPS with the certificate renewed", "its service worker registers"])

            server.send(SIGTERM)
            #expect(try await server.waitForExit().status == 0, "stderr:\n\(server.stderr)")
        }
    }
}
