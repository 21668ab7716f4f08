import Events

/// Which events of the log to keep, as of a point (`--as-of`).
///
/// The filter is per event; kept events stay in log order.
public enum AsOf: Sendable, Hashable, CustomStringConvertible {
    /// Keeps events with `seq <= n`.
    case seq(Int)
    /// Keeps events whose `at` is at or before this instant.
    case time(Timestamp)

    /// Parses `--as-of`: all digits is a `seq`, anything else must be an RFC 3339 timestamp.
    ///
    /// A `seq` too large for an `Int` keeps every event.
    public init(parsing text: String) throws(AsOfError) {
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            self = .seq(Int(text) ?? Int.max)
            return
        }
        do {
            self = .time(try Timestamp(parsing: text))
        } catch {
            throw AsOfError(text: text, reason: error)
        }
    }

    /// Whether a v1 event is kept.
    public func keeps(_ envelope: Envelope) -> Bool {
        switch self {
        case .seq(let n): envelope.seq <= n
        case .time(let t): !(t.instant < envelope.at.instant)
        }
    }

    /// Whether a record is kept. A newer-version line has no `at` this reader
    /// can trust, so a time filter keeps it (it is reported, never folded).
    public func keeps(_ record: Record) -> Bool {
        switch (self, record) {
        case (_, .event(let envelope)): keeps(envelope)
        case (.seq(let n), .newer(let line)): line.seq <= n
        case (.time, .newer): true
        }
    }

    /// The filter as written: the `seq` or the timestamp.
    public var description: String {
        switch self {
        case .seq(let n): String(n)
        case .time(let t): t.text
        }
    }
}

/// Why an `--as-of` value is neither a `seq` nor an RFC 3339 timestamp.
public struct AsOfError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value given.
    public var text: String
    /// Why it is not a timestamp.
    public var reason: TimestampError

    /// For a person.
    public var description: String {
        "as-of \(text.debugDescription): must be a seq (all digits) or an RFC 3339 timestamp; as a timestamp it \(reason)"
    }
}
