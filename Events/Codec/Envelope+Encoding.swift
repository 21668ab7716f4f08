/// The line of an envelope: the format's member order (`v`, the version of
/// the event's type, then `seq`, `id`,
/// `at`, `user`, `device`, `type`, `data`, `prev`; `data`'s members as its
/// type's file writes them, optional ones only when present, then the
/// members the format does not define, as read). The one place that writes
/// it: ``LineCodec/encode(_:)`` and, through it, ``PendingLine``.
extension JSONWriter.Cursor {
    mutating func envelope(_ e: Envelope) {
        EventType.lead[declarationIndex(e.event.type)].withUnsafeBufferPointer { copy($0) }
        integer(e.seq)
        raw(#","id":"#); string(e.id)
        raw(#","at":"#); string(e.at.text)
        raw(#","user":"#); string(e.user)
        if let device = e.device { raw(#","device":"#); string(device) }
        EventType.header[declarationIndex(e.event.type)].withUnsafeBufferPointer { copy($0) }
        var data = DataEncoder(cursor: self)
        e.event.accept(&data)
        self = data.cursor
        raw(#"},"prev":"#); string(e.prev)
        raw("}")
    }
}

extension EventType {
    /// `{"v":N,"seq":` for each type, by case: N is the type's version.
    static let lead: [[UInt8]] = allCases.map { Array(#"{"v":\#($0.version),"seq":"#.utf8) }

    /// `,"type":"NAME","data":{` for each type, by case (a type's name needs no escape).
    static let header: [[UInt8]] = allCases.map { Array(#","type":"\#($0.rawValue)","data":{"#.utf8) }
}

/// Writes an event's `data` members with its payload's ``DataObject/write(to:)``.
private struct DataEncoder: PayloadVisitor {
    var cursor: JSONWriter.Cursor

    mutating func visit<P: Payload>(_ payload: P, as type: EventType) {
        var w = MemberEncoder<P.Member>(cursor, type: type, layout: type.layout)
        payload.write(to: &w)
        cursor = w.cursor
    }
}

extension JSONWriter {
    /// Room for a line: most lines are shorter; a longer one makes the writer grow once or twice.
    static func lineCapacity(_ e: Envelope) -> Int {
        if case .submissionMade(let d) = e.event { return 512 &+ 96 &* d.answers.count }
        return 512
    }
}
