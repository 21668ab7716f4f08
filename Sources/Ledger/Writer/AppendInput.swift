import Events

/// Events given as JSON lines, as `append` reads them on stdin and a
/// server's push carries them: split at LF, each line decoded
/// (`LineCodec.decodeNewEvent`), every problem of every invalid line kept.
package enum AppendInput {
    /// One line of the input: its number (from 1) and bytes, without the LF.
    package struct Line: Sendable {
        package var number: Int
        package var bytes: ArraySlice<UInt8>
    }

    /// The lines of `bytes`, split at LF; a last line without LF counts too.
    package static func lines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            lines.append(Line(number: lines.count + 1, bytes: bytes[start..<i]))
            start = i + 1
        }
        if start < bytes.count { lines.append(Line(number: lines.count + 1, bytes: bytes[start...])) }
        return lines
    }

    /// The events of `inputs`, in order; or, when any is invalid, the
    /// problems of each invalid one (every member's, not only the first),
    /// with its index in `inputs`. Nothing is decided about ids or the log here.
    package static func decode(_ inputs: [ArraySlice<UInt8>]) -> Decoded {
        var events: [NewEvent] = []
        var invalid: [(index: Int, problems: [EventError])] = []
        events.reserveCapacity(inputs.count)
        for (k, input) in inputs.enumerated() {
            do {
                events.append(try LineCodec.decodeNewEvent(input))
            } catch {
                let each = LineCodec.problems(ofNewEvent: input)
                invalid.append((k, each.isEmpty ? [error] : each))
            }
        }
        return invalid.isEmpty ? .events(events) : .invalid(invalid)
    }

    /// What ``decode(_:)`` found.
    package enum Decoded {
        /// Every line is an event.
        case events([NewEvent])
        /// The invalid lines (their index in the input) and their problems.
        case invalid([(index: Int, problems: [EventError])])
    }

    /// `member: rule`, or `kind: rule` for a problem of the whole line.
    package static func describe(_ error: EventError) -> String {
        error.member.map { "\($0): \(error.rule)" } ?? "\(error.kind.rawValue): \(error.rule)"
    }

    /// The input a writer's refusal of a batch of `count` events names: the
    /// refused event's index, for an event that breaks a rule only the batch
    /// or the log shows (`invalid_event`, with the event's problem) or a
    /// `conflicting_duplicate` (problem nil: the refusal says it); nil when
    /// the failure names no event (I/O, a damaged log). `append` names the
    /// input line by it, and the server's push the body's line.
    package static func refused(_ error: LedgerError, count: Int) -> (index: Int, problem: EventError?)? {
        guard error.code == .invalidEvent || error.code == .conflictingDuplicate,
              let index = error.eventIndex, (0..<count).contains(index) else { return nil }
        if case .event(let problem)? = error.cause { return (index, problem) }
        return error.code == .conflictingDuplicate ? (index, nil) : nil
    }
}
