import Events

/// An as-of filter is stored as `--as-of` takes it: the `seq` (all digits) or
/// the timestamp as written, and read back with ``AsOf/init(parsing:)``.
extension AsOf: Codable {
    /// Reads the filter as `--as-of` would; anything else is a `dataCorrupted` error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try AsOf(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Writes the `seq` or the timestamp as written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
