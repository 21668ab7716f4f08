import Ledger

/// `Ledger-Head: SEQ:SHA256`: a pull answer's learner log head, the head
/// ``Head/description`` prints and ``Head/init(parsing:)`` reads
/// (`0:` and 64 zeros for a learner without a log).
package enum LedgerHeadField {
    /// The field's name as the server sends it.
    package static let name = "Ledger-Head"
    /// The field's value for `head`.
    package static func value(_ head: Head) -> String { head.description }
    /// The head a value names; nil when it names none.
    package static func head(_ value: String) -> Head? { Head(parsing: value) }
}

/// `Retry-After: SECONDS` (RFC 9110, 10.2.3, the delay form) on a `429`
/// or `503`: the whole seconds to wait before sending again.
package enum RetryAfterField {
    /// The field's name as the server sends it.
    package static let name = "Retry-After"
    /// The field's value for `seconds`.
    package static func value(seconds: Int) -> String { String(seconds) }
    /// The seconds a value names (spaces around it ignored, a negative count
    /// as 0); nil for a value that is not a count of seconds (an HTTP date).
    package static func seconds(_ value: String) -> Int? {
        Int(String(value.filter { $0 != " " })).map { max(0, $0) }
    }
}

/// The media types of the sync API's bodies.
package enum MediaType {
    /// JSON answers and refusals.
    package static let json = "application/json"
    /// A push's body and a pull's answer: JSON lines, one event a line.
    package static let ndjson = "application/x-ndjson"
}
