#if canImport(Glibc)
import Glibc
#endif
import HearthCore
import Testing

/// Domain normalisation (what makes two spellings one store) and the SSRF guard's address classes.
@Suite struct StoreDomainTests {
    @Test(arguments: [
        ("allbirds.com", "allbirds.com", "allbirds"),
        ("  HTTPS://Allbirds.COM:443/collections/all?x=1#top ", "allbirds.com", "allbirds"),
        ("http://user:pass@shop.example.org.:8080", "shop.example.org", "shop"),
        ("www.gymshark.com", "www.gymshark.com", "gymshark"),
        ("Bücher.de", "xn--bcher-kva.de", "bücher"),
        ("münchen。example．com", "xn--mnchen-3ya.example.com", "münchen"),
        ("例え.jp", "xn--r8jz45g.jp", "例え"),
    ])
    func normalises(_ input: String, _ host: String, _ name: String) throws {
        let domain = try StoreDomain(input)
        #expect(domain.host == host)
        #expect(domain.suggestedName == name)
    }

    @Test(arguments: ["", "   ", "exa mple.com", "-shop.com", "shop-.com", "a..b", "[::1]", "shop.com:http", "sh_op.com",
                      String(repeating: "a", count: 64) + ".com"])
    func refuses(_ input: String) {
        #expect(throws: ServiceError.self) { try StoreDomain(input) }
        do {
            _ = try StoreDomain(input)
        } catch {
            if error.kind == .badUserInput {
                #expect(error.field == "domain")
                #expect(!error.message.isEmpty)
            } else {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func publicAndNonPublicAddresses() {
        let blocked: [[UInt8]] = [
            [127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1], [169, 254, 169, 254],
            [100, 64, 0, 1], [0, 0, 0, 0], [224, 0, 0, 1], [255, 255, 255, 255], [198, 18, 0, 1], [192, 0, 2, 1],
            Array(repeating: 0, count: 15) + [1],                       // ::1
            [0xFE, 0x80] + Array(repeating: 0, count: 14),               // fe80::
            [0xFD, 0x00] + Array(repeating: 0, count: 14),               // fd00::
            Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1], // ::ffff:127.0.0.1
        ]
        let open: [[UInt8]] = [
            [23, 227, 38, 65], [8, 8, 8, 8], [172, 32, 0, 1], [100, 128, 0, 1],
            [0x26, 0x20, 0x01, 0x27] + Array(repeating: 0, count: 11) + [1],
            Array(repeating: 0, count: 10) + [0xFF, 0xFF, 23, 227, 38, 65],
        ]
        for address in blocked { #expect(!HostAddressGuard.isPublic(address), "\(address)") }
        for address in open { #expect(HostAddressGuard.isPublic(address), "\(address)") }
    }

    /// Only the DNS's definite "no such name" means a misspelled or closed store; a resolver that
    /// cannot answer (no network, a timeout) says nothing of the store and is a network failure.
    @Test func resolverStatusesAreClassified() async throws {
        #expect(SystemHostResolver.error(status: EAI_NONAME) == .noSuchName)
        #expect(SystemHostResolver.error(status: -5) == .noSuchName, "EAI_NODATA")
        #expect(SystemHostResolver.error(status: EAI_AGAIN) == .resolverFailed("the DNS resolver could not be reached or did not answer in time"))
        guard case .resolverFailed = SystemHostResolver.error(status: EAI_FAIL) else {
            Issue.record("EAI_FAIL is a resolver failure")
            return
        }
        struct Answering: HostResolver {
            let error: HostResolutionError
            func addresses(of host: String) async throws -> [[UInt8]] { throw error }
        }
        await #expect(throws: StoreSyncError(.storeNotFound, "No server is known by the name shop.example.")) {
            try await HostAddressGuard.check("shop.example", using: Answering(error: .noSuchName))
        }
        await #expect(throws: StoreSyncError(.networkUnavailable, "Hearth could not look up shop.example: timed out.")) {
            try await HostAddressGuard.check("shop.example", using: Answering(error: .resolverFailed("timed out")))
        }
    }

    @Test func loopbackNamesAreRefused() async throws {
        await #expect(throws: StoreSyncError.self) { try await HostAddressGuard.check("localhost") }
        await #expect(throws: StoreSyncError.self) { try await HostAddressGuard.check("127.0.0.1") }
        await #expect(throws: StoreSyncError.self) { try await HostAddressGuard.check("no-such-host.invalid") }
    }

    @Test func priceChangeMagnitudes() {
        #expect(PriceChangeMagnitude(old: 10000, new: 9100) == .small)
        #expect(PriceChangeMagnitude(old: 10000, new: 9000) == .medium)
        #expect(PriceChangeMagnitude(old: 10000, new: 7500) == .medium)
        #expect(PriceChangeMagnitude(old: 10000, new: 7499) == .large)
        #expect(PriceChangeMagnitude(old: 10000, new: 12600) == .large)
    }
}
