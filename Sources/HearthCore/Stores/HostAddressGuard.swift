
/// The SSRF guard: a store's host must resolve only to public addresses, so a household cannot
/// make Hearth fetch from loopback, the local network or cloud metadata endpoints.
///
/// The check runs before every request. (A host that changes its DNS answer between the check
/// and the connection — DNS rebinding — is not caught; the connection itself is not pinned.)
public enum HostAddressGuard {
    /// The addresses `host` resolves to. A definite "no such name" is ``StoreSyncError/Code/storeNotFound``
    /// (check the spelling); a resolver that cannot answer is ``StoreSyncError/Code/networkUnavailable``
    /// (an offline server is not a misspelled store, and the sync loop retries).
    public static func resolve(_ host: String, using resolver: any HostResolver = SystemHostResolver()) async throws -> [[UInt8]] {
        do {
            let addresses = try await resolver.addresses(of: host)
            guard !addresses.isEmpty else { throw HostResolutionError.noSuchName }
            return addresses
        } catch HostResolutionError.noSuchName {
            throw StoreSyncError(.storeNotFound, "No server is known by the name \(host).")
        } catch HostResolutionError.resolverFailed(let reason) {
            throw StoreSyncError(.networkUnavailable, "Hearth could not look up \(host): \(reason).")
        }
    }

    /// Throws unless every address `host` resolves to is public.
    public static func check(_ host: String, using resolver: any HostResolver = SystemHostResolver()) async throws {
        for address in try await resolve(host, using: resolver) where !isPublic(address) {
            throw StoreSyncError(.storeNotFound,
                                 "\(host) points to a private or local address (\(format(address))); Hearth fetches only from public hosts.")
        }
    }

    /// Whether an IPv4 (4 bytes) or IPv6 (16 bytes) address is globally reachable: not
    /// loopback, private, shared (CGNAT), link-local, documentation, benchmarking, multicast,
    /// reserved or unspecified.
    public static func isPublic(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: return isPublicIPv4(address)
        case 16: return isPublicIPv6(address)
        default: return false
        }
    }

    private static func isPublicIPv4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1], a[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return false          // "this network", private, loopback
        case (100, 64...127, _): return false                          // shared address space (CGNAT)
        case (169, 254, _): return false                               // link-local (cloud metadata)
        case (172, 16...31, _): return false                           // private
        case (192, 0, 0), (192, 0, 2), (192, 88, 99): return false     // IETF protocol, TEST-NET-1, 6to4 relay
        case (192, 168, _): return false                               // private
        case (198, 18...19, _), (198, 51, 100), (203, 0, 113): return false  // benchmarking, TEST-NET-2/3
        case (224...255, _, _): return false                           // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublicIPv6(_ a: [UInt8]) -> Bool {
        let high = UInt16(a[0]) << 8 | UInt16(a[1])
        if a[0..<15].allSatisfy({ $0 == 0 }) { return false }                   // :: and ::1
        if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xFF && a[11] == 0xFF { // IPv4-mapped
            return isPublicIPv4(Array(a[12..<16]))
        }
        if a[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0][...] {       // NAT64
            return isPublicIPv4(Array(a[12..<16]))
        }
        if high & 0xFE00 == 0xFC00 { return false }                             // unique local fc00::/7
        if high & 0xFFC0 == 0xFE80 || high & 0xFFC0 == 0xFEC0 { return false }  // link-local, site-local
        if a[0] == 0xFF { return false }                                        // multicast
        if high == 0x2001 && a[2] == 0x0D && a[3] == 0xB8 { return false }      // documentation
        if high == 0x0100 && a[2..<8].allSatisfy({ $0 == 0 }) { return false }  // discard-only
        if high == 0x2002 { return isPublicIPv4(Array(a[2..<6])) }             // 6to4
        return high & 0xE000 == 0x2000                                          // global unicast 2000::/3
    }

    /// An address in its usual text form, for messages.
    static func format(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count, by: 2)
            .map { String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
