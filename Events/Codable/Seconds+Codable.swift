/// Puzzle seconds are coded as the JSON number they are (`42`, `12.75`),
/// through ``JSONValue``'s number coding.
extension Seconds: Codable {
    /// Reads a number; one that is not > 0 is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        guard case .number(let literal) = try JSONValue(from: decoder), let seconds = Seconds(literal: literal) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "seconds must be a number > 0"))
        }
        self = seconds
    }

    /// Writes the number.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.number(literal).encode(to: encoder)
    }
}
