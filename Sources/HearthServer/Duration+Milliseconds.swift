extension Duration {
    /// The duration in milliseconds, as logs and health reports show it.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// Milliseconds to the microsecond: a health check's response time.
    var responseTimeMilliseconds: Double {
        (milliseconds * 1000).rounded() / 1000
    }
}
