/// Codable through the ledger's own codec, so the member names, their order,
/// the optional members and every rule live in one place (``LineCodec``):
///
/// - encoding writes the value's line with the codec, parses it into a
///   ``JSONValue`` tree and gives the tree to the `Encoder`;
/// - decoding reads a ``JSONValue`` tree from the `Decoder`, writes it as one
///   compact line and decodes that line with the codec, which checks every rule
///   and names the member of the first one broken (as a `DecodingError`).
package enum SpecJSON {
    /// The members an envelope's line has that an event to append leaves to the ledger.
    static let assigned: Set<String> = ["v", "seq", "prev"]   // not a format string: envelope member names
    /// The envelope members a payload is decoded inside (the `data` tree is the caller's).
    static let carrier: [JSONMember] = [JSONMember("at", .string("1970-01-01T00:00:00Z")), JSONMember("user", .string("u"))]

    /// The tree of bytes the codec wrote (they always parse).
    package static func tree(_ bytes: [UInt8], codingPath: [any CodingKey]) throws -> JSONValue {
        do {
            return try JSONDocument.parse(bytes)
        } catch {
            throw EncodingError.invalidValue(String(decoding: bytes, as: UTF8.self),
                                             .init(codingPath: codingPath, debugDescription: "the codec's JSON did not parse: \(error)", underlyingError: error))
        }
    }

    /// The members of an event's line without `v`, `seq` and `prev` (and `id` when it has none).
    static func newEventMembers(_ event: NewEvent, codingPath: [any CodingKey]) throws -> [JSONMember] {
        let line = LineCodec.encode(event.sealed(seq: 1, id: event.id ?? "", prev: Envelope.genesis))
        guard case .object(let members) = try tree(line, codingPath: codingPath) else { return [] }
        return members.filter { !assigned.contains($0.name) && !($0.name == "id" && event.id == nil) }
    }

    /// The `data` tree of an event.
    static func data(_ event: Event, codingPath: [any CodingKey]) throws -> JSONValue {
        let members = try newEventMembers(NewEvent(at: placeholderTime, user: "u", event: event), codingPath: codingPath)
        return members.first { $0.name == "data" }?.value ?? .object([])
    }

    /// The JSON object of a payload of `type`, as its line holds it.
    static func object<P: Payload>(_ p: P, type: EventType) -> [UInt8] {
        var w = JSONWriter()
        w.write { c in
            c.byte(UInt8(ascii: "{"))
            var members = MemberEncoder<P.Member>(c, type: type, layout: type.layout)
            p.write(to: &members)
            c = members.cursor
            c.byte(UInt8(ascii: "}"))
        }
        return w.bytes
    }

    /// Decodes `tree` (an object) with the codec's `decode`, as a `DecodingError` when it breaks a rule.
    static func decode<T>(_ tree: JSONValue, _ decoder: any Decoder,
                          _ decode: ([UInt8]) throws(EventError) -> T) throws -> T {
        var w = JSONWriter()
        w.value(tree)
        do {
            return try decode(w.bytes)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// Decodes the event of type `type` whose `data` is `data`.
    static func event(type: EventType, data: JSONValue, _ decoder: any Decoder) throws -> Event {
        let members = carrier + [JSONMember("type", .string(type.rawValue)), JSONMember("data", data)]
        return try decode(.object(members), decoder) { (bytes) throws(EventError) in try LineCodec.decodeNewEvent(bytes).event }
    }

    /// A valid `at` for the lines payloads are coded in.
    static let placeholderTime = Timestamp(text: "1970-01-01T00:00:00Z", instant: Instant(seconds: 0, nanoseconds: 0),
                                           offsetMinutes: 0, day: Day(ordinal: 0))

    /// The error for a payload decoded as the wrong type (cannot happen: the codec decodes the type asked for).
    static func mismatch(_ decoder: any Decoder, _ type: EventType) -> DecodingError {
        .dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected the data of \(type)"))
    }
}
