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
/// written and checked by ``LineCodec``; a line of a newer format version
/// (`v` > 1) is a `dataCorrupted` error.
extension Envelope: Codable {
    /// Reads a version-1 log line.
    public init(from decoder: any Decoder) throws {
        let record = try SpecJSON.decode(try JSONValue(from: decoder), decoder) { (bytes) throws(EventError) in try LineCodec.decodeRecord(bytes) }
        guard case .v1(let envelope) = record else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "a line of format version > 1: decode it with LineCodec.decodeRecord"))
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
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\(name.debugDescription) is not an event type of format version 1")
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

/// The payloads are coded as the `data` object of their line.
package protocol SpecPayload: Codable {
    /// The type whose rules decode a payload on its own (the lenient one of a shared shape).
    static var decodedAs: EventType { get }
    /// The payload as an event.
    var event: Event { get }
    /// The payload of an event of type ``decodedAs``.
    init?(_ event: Event)
}

extension SpecPayload {
    /// Reads the `data` object, checked as `append` checks it.
    public init(from decoder: any Decoder) throws {
        let event = try SpecJSON.event(type: Self.decodedAs, data: try JSONValue(from: decoder), decoder)
        guard let payload = Self(event) else { throw SpecJSON.mismatch(decoder, Self.decodedAs) }
        self = payload
    }

    /// Writes the `data` object.
    public func encode(to encoder: any Encoder) throws {
        try SpecJSON.data(event, codingPath: encoder.codingPath).encode(to: encoder)
    }
}

extension QuizStarted: SpecPayload {
    package static var decodedAs: EventType { .quizStarted }
    package var event: Event { .quizStarted(self) }
    package init?(_ event: Event) { guard case .quizStarted(let d) = event else { return nil }; self = d }
}

extension AnswerSelected: SpecPayload {
    package static var decodedAs: EventType { .answerSelected }
    package var event: Event { .answerSelected(self) }
    package init?(_ event: Event) { guard case .answerSelected(let d) = event else { return nil }; self = d }
}

extension HintUsed: SpecPayload {
    package static var decodedAs: EventType { .hintUsed }
    package var event: Event { .hintUsed(self) }
    package init?(_ event: Event) { guard case .hintUsed(let d) = event else { return nil }; self = d }
}

/// `quiz.finished` and `quiz.abandoned` share this payload.
extension AttemptEnded: SpecPayload {
    package static var decodedAs: EventType { .quizFinished }
    package var event: Event { .quizFinished(self) }
    package init?(_ event: Event) { guard case .quizFinished(let d) = event else { return nil }; self = d }
}

/// On its own, a puzzle payload is read with `puzzle.failed`'s rules (`seconds` optional).
extension PuzzlePlayed: SpecPayload {
    package static var decodedAs: EventType { .puzzleFailed }
    package var event: Event { .puzzleFailed(self) }
    package init?(_ event: Event) { guard case .puzzleFailed(let d) = event else { return nil }; self = d }
}

extension SubmissionMade: SpecPayload {
    package static var decodedAs: EventType { .submissionMade }
    package var event: Event { .submissionMade(self) }
    package init?(_ event: Event) { guard case .submissionMade(let d) = event else { return nil }; self = d }
}

/// An answer is coded as an item of `answers`, inside a submission of one answer.
extension SubmissionMade.Answer: SpecPayload {
    package static var decodedAs: EventType { .submissionMade }
    package var event: Event { .submissionMade(SubmissionMade(content: "c", kind: .lesson, category: "c", answers: [self])) }
    package init?(_ event: Event) {
        guard case .submissionMade(let d) = event, d.answers.count == 1, let answer = d.answers.first else { return nil }
        self = answer
    }

    /// Reads one answer, checked as `append` checks it.
    public init(from decoder: any Decoder) throws {
        let data = JSONValue.object([JSONMember("content", .string("c")), JSONMember("kind", .string("lesson")),
                                     JSONMember("category", .string("c")), JSONMember("answers", .array([try JSONValue(from: decoder)]))])
        guard let answer = Self(try SpecJSON.event(type: .submissionMade, data: data, decoder)) else { throw SpecJSON.mismatch(decoder, .submissionMade) }
        self = answer
    }

    /// Writes the answer's object.
    public func encode(to encoder: any Encoder) throws {
        guard case .object(let members) = try SpecJSON.data(event, codingPath: encoder.codingPath),
              case .array(let items)? = members.first(where: { $0.name == "answers" })?.value, let item = items.first else { return }
        try item.encode(to: encoder)
    }
}

extension HintsGranted: SpecPayload {
    package static var decodedAs: EventType { .hintsGranted }
    package var event: Event { .hintsGranted(self) }
    package init?(_ event: Event) { guard case .hintsGranted(let d) = event else { return nil }; self = d }
}

extension ProgressReset: SpecPayload {
    package static var decodedAs: EventType { .progressReset }
    package var event: Event { .progressReset(self) }
    package init?(_ event: Event) { guard case .progressReset(let d) = event else { return nil }; self = d }
}

/// The enumerations are coded as their spec strings (their raw values).
extension HintUsed.Kind: Codable {}
extension HintsGranted.Reason: Codable {}
extension ProgressReset.Scope: Codable {}
extension SubmissionMade.Kind: Codable {}
extension EventType: Codable {}
