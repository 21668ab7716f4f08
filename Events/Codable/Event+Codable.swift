/// An event to append is coded as the line `progress-ledger append` reads:
/// `{"id","at","user","device","type","data"}` (no `v`, `seq` or `prev`;
/// `id` and `device` only when present), written and checked by ``LineCodec``.
/// Encoding does not check the rules: `append` (or decoding) does.
extension NewEvent: Codable {
    /// Reads an event to append; one that `append` would refuse is a `dataCorrupted` error naming the member and rule.
    public init(from decoder: any Decoder) throws {
        self = try SpecJSON.decode(try JSONValue(from: decoder), decoder) { (bytes) throws(EventError) in try LineCodec.decodeNewEvent(bytes) }
    }

    /// Writes the event as a line to append.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(try SpecJSON.newEventMembers(self, codingPath: encoder.codingPath)).encode(to: encoder)
    }
}

/// An envelope is coded as its log line (members in the format's order),
/// written and checked by ``LineCodec``; a line of a format version this
/// reader does not know is a `dataCorrupted` error.
extension Envelope: Codable {
    /// Reads a log line of a known format version.
    public init(from decoder: any Decoder) throws {
        let record = try SpecJSON.decode(try JSONValue(from: decoder), decoder) { (bytes) throws(EventError) in try LineCodec.decodeRecord(bytes) }
        guard case .event(let envelope) = record else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "a line of a format version this reader does not know: decode it with LineCodec.decodeRecord"))
        }
        self = envelope
    }

    /// Writes the log line.
    public func encode(to encoder: any Encoder) throws {
        try SpecJSON.tree(LineCodec.encode(self), codingPath: encoder.codingPath).encode(to: encoder)
    }
}

/// An event is coded as `{"type": ..., "data": {...}}`, the two members of
/// its line.
extension Event: Codable {
    private enum CodingKeys: String, CodingKey { case type, data }

    /// Reads the type and its data, checked as `append` checks them.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .type)
        guard let type = EventType(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\(name.debugDescription) is not an event type")
        }
        self = try SpecJSON.event(type: type, data: try c.decode(JSONValue.self, forKey: .data), decoder)
    }

    /// Writes the type and data.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type.rawValue, forKey: .type)
        try c.encode(try SpecJSON.data(self, codingPath: encoder.codingPath), forKey: .data)
    }
}

/// The payloads are coded as the `data` object of their line, written and
/// checked by their own ``DataObject`` members.
extension Payload {
    /// Reads the `data` object, checked as `append` checks it.
    public init(from decoder: any Decoder) throws {
        var cast = Cast<Self>()
        try SpecJSON.event(type: Self.eventType, data: try JSONValue(from: decoder), decoder).accept(&cast)
        guard let payload = cast.payload else { throw SpecJSON.mismatch(decoder, Self.eventType) }
        self = payload
    }

    /// Writes the `data` object.
    public func encode(to encoder: any Encoder) throws {
        try SpecJSON.tree(SpecJSON.object(self, type: Self.eventType), codingPath: encoder.codingPath).encode(to: encoder)
    }
}

/// The payload of an event, when it is a `P`.
private struct Cast<P: Payload>: PayloadVisitor {
    var payload: P?
    mutating func visit<Q: Payload>(_ payload: Q, as type: EventType) { self.payload = payload as? P }
}

/// An answer is coded as an item of `answers`, inside a submission of one answer.
extension SubmissionMade.Answer: Codable {
    /// Reads one answer, checked as `append` checks it.
    public init(from decoder: any Decoder) throws {
        let data = JSONValue.object([JSONMember("content", .string("c")), JSONMember("kind", .string("lesson")),
                                     JSONMember("category", .string("c")), JSONMember("answers", .array([try JSONValue(from: decoder)]))])
        guard case .submissionMade(let d) = try SpecJSON.event(type: .submissionMade, data: data, decoder), let answer = d.answers.first else {
            throw SpecJSON.mismatch(decoder, .submissionMade)
        }
        self = answer
    }

    /// Writes the answer's object.
    public func encode(to encoder: any Encoder) throws {
        let submission = SubmissionMade(content: "c", kind: .lesson, category: "c", answers: [self])
        guard case .object(let members) = try SpecJSON.tree(SpecJSON.object(submission, type: .submissionMade), codingPath: encoder.codingPath),
              case .array(let items)? = members.first(where: { $0.name == "answers" })?.value, let item = items.first else { return }
        try item.encode(to: encoder)
    }
}

/// The enumerations are coded as their spec strings (their raw values).
extension HintUsed.Kind: Codable {}
extension HintsGranted.Reason: Codable {}
extension ProgressReset.Scope: Codable {}
extension StreakFreezeGranted.Reason: Codable {}
extension SubmissionMade.Kind: Codable {}
extension EventType: Codable {}
