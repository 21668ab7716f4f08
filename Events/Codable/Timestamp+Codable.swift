/// A timestamp is stored as its text, exactly as written, and parsed again
/// when read: the text is the one source of truth (instant, offset and day
/// follow from it), and a JSON encoding shows what the log shows.
extension Timestamp: Codable {
    /// Reads the RFC 3339 text and parses it; a text the log could not hold is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try Timestamp(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "timestamp \(text.debugDescription) \(error)")
        }
    }

    /// Writes the text as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
