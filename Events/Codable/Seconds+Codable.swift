/// Puzzle seconds are stored as the JSON number literal the log wrote
/// (`12.75` stays `12.75`), so a round trip prints the same bytes.
extension Seconds: Codable {
    /// Reads the literal; one that is not a finite number > 0 is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let literal = try container.decode(String.self)
        guard let seconds = Seconds(literal: literal) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "seconds \(literal.debugDescription) is not a number > 0")
        }
        self = seconds
    }

    /// Writes the literal.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(literal)
    }
}
