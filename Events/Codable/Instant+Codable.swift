/// An instant is stored as `{ "seconds", "nanoseconds" }` since 1970-01-01T00:00:00Z.
extension Instant: Codable {
    private enum CodingKeys: String, CodingKey { case seconds, nanoseconds }

    /// Reads seconds and nanoseconds; nanoseconds outside 0 ..< 1,000,000,000 are a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try container.decode(Int64.self, forKey: .seconds)
        let nanoseconds = try container.decode(Int32.self, forKey: .nanoseconds)
        guard (0..<1_000_000_000).contains(nanoseconds) else {
            throw DecodingError.dataCorruptedError(forKey: .nanoseconds, in: container,
                                                   debugDescription: "nanoseconds \(nanoseconds) out of 0..<1000000000")
        }
        self.init(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// Writes seconds and nanoseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(nanoseconds, forKey: .nanoseconds)
    }
}

/// An exact span is stored as its whole number of nanoseconds.
extension ExactSeconds: Codable {
    /// Reads the nanoseconds.
    public init(from decoder: any Decoder) throws {
        self.init(nanoseconds: try decoder.singleValueContainer().decode(Int64.self))
    }

    /// Writes the nanoseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(nanoseconds)
    }
}
