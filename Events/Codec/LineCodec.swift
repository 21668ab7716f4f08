/// Reads and writes the lines of a log (format versions 1 and 2).
///
/// Every entry point takes the bytes of one line without its LF. Errors name
/// the kind, the member path and the rule; the caller adds the line number.
public enum LineCodec {
    /// The longest line allowed, not counting its LF: 1 MiB.
    public static let maxLineLength = 1_048_576

    /// Decodes one stored log line into an event of a known format version
    /// or a newer-version line (of a version above those the reader knows).
    public static func decodeRecord(_ line: UnsafeRawBufferPointer) throws(EventError) -> Record {
        try LineDecoder.record(line)
    }

    /// Decodes one stored log line given as bytes.
    @inlinable
    public static func decodeRecord<Bytes: Collection<UInt8>>(_ line: Bytes) throws(EventError) -> Record {
        try withBytes(line) { (buffer) throws(EventError) in try decodeRecord(buffer) }
    }

    /// Decodes an event to append: an envelope without `seq` and `prev`, with `v` and `id` optional.
    public static func decodeNewEvent(_ line: UnsafeRawBufferPointer) throws(EventError) -> NewEvent {
        try LineDecoder.newEvent(line)
    }

    /// Decodes an event to append given as bytes.
    @inlinable
    public static func decodeNewEvent<Bytes: Collection<UInt8>>(_ line: Bytes) throws(EventError) -> NewEvent {
        try withBytes(line) { (buffer) throws(EventError) in try decodeNewEvent(buffer) }
    }

    /// The exact bytes of an envelope's line, without the LF: members in the
    /// format's order, no insignificant whitespace.
    public static func encode(_ envelope: Envelope) -> [UInt8] {
        var writer = JSONWriter(capacity: JSONWriter.lineCapacity(envelope))
        writer.write { $0.envelope(envelope) }
        return writer.bytes
    }

    /// Checks the line as a line (length, line ending, encoding) and parses it as a JSON object.
    package static func parseObject(_ line: UnsafeRawBufferPointer) throws(EventError) -> [JSONMember] {
        try LineChecks.check(line)
        switch try JSONScanner.parse(line) {
        case .object(let members): return members
        default: throw EventError(.notObject, "the line must be a JSON object")
        }
    }

    /// Runs `body` on the bytes, copying them only when they are not contiguous.
    @inlinable
    static func withBytes<Bytes: Collection<UInt8>, T>(
        _ bytes: Bytes, _ body: (UnsafeRawBufferPointer) throws(EventError) -> T
    ) throws(EventError) -> T {
        var failure: EventError? = nil
        let value: T?? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(EventError) { return try body(UnsafeRawBufferPointer(buffer)) } catch { failure = error; return nil }
        }
        if let failure { throw failure }
        if case .some(.some(let value)) = value { return value }
        return try Array(bytes).withUnsafeBytes { buffer in
            Result { () throws(EventError) -> T in try body(buffer) }
        }.get()
    }
}
