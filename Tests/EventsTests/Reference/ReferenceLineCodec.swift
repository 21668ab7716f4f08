@testable import Events

/// The tree-based decoder the byte-level one replaced, kept frozen as the
/// oracle of the agreement tests: it parses the whole line into a
/// ``JSONValue`` tree, then reads the members through dictionaries of names.
///
/// The files in this folder are the library's former `JSONScanner`,
/// `LineChecks`, `MemberReader`, `RecordDecoder` and `EventDecoder`, and the
/// former `Timestamp(parsing:)`, renamed with a `Reference` prefix and
/// otherwise unchanged. Do not "fix" them: they define what the fast decoder
/// must do, error for error.
enum ReferenceLineCodec {
    static func decodeRecord(_ line: [UInt8]) -> Result<Record, EventError> {
        line.withUnsafeBytes { buffer in
            Result { () throws(EventError) -> Record in
                try ReferenceRecordDecoder.record(from: try parseObject(buffer))
            }
        }
    }

    static func decodeNewEvent(_ line: [UInt8]) -> Result<NewEvent, EventError> {
        line.withUnsafeBytes { buffer in
            Result { () throws(EventError) -> NewEvent in
                try ReferenceRecordDecoder.newEvent(from: try parseObject(buffer))
            }
        }
    }

    static func parseJSON(_ bytes: [UInt8]) -> Result<JSONValue, EventError> {
        bytes.withUnsafeBytes { buffer in
            Result { () throws(EventError) -> JSONValue in try ReferenceJSONScanner.parse(buffer) }
        }
    }

    static func parseObject(_ line: UnsafeRawBufferPointer) throws(EventError) -> [JSONMember] {
        try ReferenceLineChecks.check(line)
        switch try ReferenceJSONScanner.parse(line) {
        case .object(let members): return members
        default: throw EventError(.notObject, "the line must be a JSON object")
        }
    }
}

extension ReferenceLineCodec {
    /// The encoder as it was: an ObjectWriter per object, one byte at a time.
    static func encode(_ envelope: Envelope) -> [UInt8] {
        var writer = ReferenceJSONWriter()
        writer.write(envelope)
        return writer.bytes
    }
}
