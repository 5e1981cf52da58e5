import ServiceLifecycle

/// Sleeps for `duration`, or less when graceful shutdown begins (for background loops that
/// poll: they stop waiting and see the shutdown at once).
func gracefulShutdownSleep(_ duration: Duration) async throws {
    try await cancelWhenGracefulShutdown {
        try await Task.sleep(for: duration)
    }
}

/// Awaits a background loop's `ready` (the server's migrations, say) unless shutdown comes
/// first; false when the loop should not start at all.
func awaitReady(_ ready: (@Sendable () async -> Void)?) async -> Bool {
    if let ready { await cancelWhenGracefulShutdown { await ready() } }
    return !Task.isShuttingDownGracefully && !Task.isCancelled
}
