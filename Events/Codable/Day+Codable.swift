/// A day is stored as `YYYY-MM-DD`, as the spec's JSON prints it.
extension Day: Codable {
    /// Reads `YYYY-MM-DD`; a date that does not exist is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "day \(text.debugDescription) is not a date YYYY-MM-DD that exists")
        }
        self = day
    }

    /// Writes `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
