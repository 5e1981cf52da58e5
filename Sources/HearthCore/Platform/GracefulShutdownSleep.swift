import ServiceLifecycle

/// Sleeps for `duration`, or less when graceful shutdown begins (for background loops that
/// poll: they stop waiting and see the shutdown at once).
func gracefulShutdownSleep(_ duration: Duration) async throws {
    try await cancelWhenGracefulShutdown {
        try await Task.sleep(for: duration)
    }
}
