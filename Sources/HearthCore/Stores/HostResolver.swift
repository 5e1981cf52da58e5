#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOPosix

/// Turns a store's host name into addresses. The system's resolver by default; tests and special
/// set-ups give their own (``ShopifyClientConfiguration/resolver``).
public protocol HostResolver: Sendable {
    /// IPv4 (4 bytes) and IPv6 (16 bytes) addresses; throws ``HostResolutionError``.
    func addresses(of host: String) async throws -> [[UInt8]]
}

/// Why a name did not resolve: only a definite "no such name" means the store does not exist;
/// a resolver that cannot answer (no network, a timeout, a failing server) says nothing of it.
public enum HostResolutionError: Error, Sendable, Equatable {
    /// The DNS answered that the name does not exist (NXDOMAIN) or has no address.
    case noSuchName
    /// The resolver could not answer; the text says why.
    case resolverFailed(String)
}

/// `getaddrinfo`, run on NIO's thread pool (it blocks), with its status codes classified.
public struct SystemHostResolver: HostResolver {
    public init() {}

    public func addresses(of host: String) async throws -> [[UInt8]] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
            hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &list)
            guard status == 0, let first = list else { throw Self.error(status: status) }
            defer { freeaddrinfo(first) }
            var addresses: [[UInt8]] = []
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let current = entry {
                if let address = current.pointee.ai_addr {
                    switch Int32(current.pointee.ai_family) {
                    case AF_INET:
                        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                            var raw = pointer.pointee.sin_addr
                            addresses.append(withUnsafeBytes(of: &raw) { Array($0) })
                        }
                    case AF_INET6:
                        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                            var raw = pointer.pointee.sin6_addr
                            addresses.append(withUnsafeBytes(of: &raw) { Array($0) })
                        }
                    default: break
                    }
                }
                entry = current.pointee.ai_next
            }
            guard !addresses.isEmpty else { throw HostResolutionError.noSuchName }
            return addresses
        }
    }

    /// glibc's "no address associated with hostname" (EAI_NODATA, a GNU extension Swift does not import).
    static let noData: Int32 = -5

    /// A failed `getaddrinfo` status: EAI_NONAME and EAI_NODATA are the DNS's "no such name";
    /// everything else (EAI_AGAIN, EAI_FAIL, EAI_SYSTEM, …) is a resolver that could not answer.
    public static func error(status: Int32) -> HostResolutionError {
        switch status {
        case 0: return .noSuchName  // success with an empty list
        case EAI_NONAME, noData: return .noSuchName
        case EAI_AGAIN: return .resolverFailed("the DNS resolver could not be reached or did not answer in time")
        default: return .resolverFailed(String(cString: gai_strerror(status)))
        }
    }
}
