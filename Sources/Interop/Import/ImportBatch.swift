import Events
import Ledger
import Projections

/// The events an import makes, and what it assumed to make them.
package struct ImportBatch: Sendable {
    /// The events, in the order they are appended.
    package internal(set) var events: [NewEvent] = []
    /// Lines for stderr: what the command assumed (docs/import.md, "Times", "Marks").
    package internal(set) var assumptions: [String] = []
}

/// The rules every store shares: ids, marks, times (docs/import.md).
struct ImportRules {
    let kind: ImportKind
    let settings: ImportSettings

    /// `KIND:H`, H the first 32 hex digits of SHA-256(user LF rowKey).
    func baseID(_ rowKey: String) -> String {
        var hash = SHA256()
        hash.update(Array((settings.user + "\n" + rowKey).utf8))
        return kind.rawValue + ":" + String(hash.finalize().hex.prefix(32))
    }

    /// The `data` marks: `imported`, and `assumed` when members were made up.
    func marks(assumed: [String] = []) -> [JSONMember] {
        var m = [JSONMember("imported", .string(kind.rawValue))]
        if !assumed.isEmpty { m.append(JSONMember("assumed", .array(assumed.map { .string($0) }))) }
        return m
    }

    /// An event of this import.
    func event(_ id: String, at: Timestamp, _ event: Event) -> NewEvent {
        NewEvent(id: id, at: at, user: settings.user, device: settings.device, event: event)
    }

    /// An RFC 3339 time of the store re-expressed in `--utc-offset`, its fraction's digits kept.
    func timestamp(rfc3339 text: String) -> Timestamp? {
        guard let t = try? Timestamp(parsing: text) else { return nil }
        var digits = 0
        if let dot = text.firstIndex(of: ".") {
            digits = text[text.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }.count
        }
        return Timestamp(instant: t.instant, offsetMinutes: settings.offsetMinutes, fractionDigits: digits)
    }

    /// One event per row, in time order then by the row's key (code points),
    /// with the offset assumed for each row's instant.
    func batch(oneEventPerRow made: [(at: Timestamp, key: String, event: NewEvent)]) -> ImportBatch {
        let sorted = made.sorted { a, b in
            a.at.instant != b.at.instant ? a.at.instant < b.at.instant : CodePoint.less(a.key, b.key)
        }
        var batch = ImportBatch(events: sorted.map(\.event))
        if !made.isEmpty { batch.assumptions.append(offsetNote(made.count)) }
        return batch
    }

    /// `assumed UTC offset … for N instants`.
    func offsetNote(_ n: Int) -> String {
        "assumed UTC offset \(settings.offsetText) for \(n) instant\(n == 1 ? "" : "s") (the store keeps no offset; --utc-offset)"
    }
}
