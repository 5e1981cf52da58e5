/// SplitMix64 for the generators of the differential tests: small, fast, deterministic
/// (same seed, same documents and data).
protocol SeededRandom {
    var state: UInt64 { get set }
    /// A number in `0..<bound`.
    mutating func int(_ bound: Int) -> Int
}

extension SeededRandom {
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A bound of 0 or 1 gives 0 without drawing.
    mutating func int(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
}
