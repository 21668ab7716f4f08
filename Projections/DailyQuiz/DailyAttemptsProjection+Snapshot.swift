import Events

// A hand-written fast path for the daily attempts by day in a snapshot: the
// same bytes as their `Codable` form through `CompactEncoder` (a test compares them).

extension DailyAttemptsProjection.State {
    /// Writes `{ days: [day, record, ...] }`, a day as its ordinal.
    func writeCompact(_ sink: CompactSink) {
        sink.beginObject()
        sink.field("days")
        sink.beginArray(2 * days.count)
        for (day, record) in days {
            sink.write(day.ordinal)
            sink.beginObject()
            sink.field("attempts"); Self.write(record.attempts, sink)
            sink.field("finished"); Self.write(record.finished, sink)
            sink.field("firstFinishedAt"); sink.write(record.firstFinishedAt?.text)
            sink.endObject()
        }
        sink.endObject()
    }

    /// Reads what ``writeCompact(_:)`` writes.
    init(compact source: CompactSource) throws {
        self.init()
        try source.beginObject()
        try source.field("days")
        let n = try source.beginArray()
        guard n % 2 == 0 else { throw source.corrupted("an odd number of days and records") }
        days.reserveCapacity(n / 2)
        for _ in 0..<(n / 2) {
            let day = Day(ordinal: try source.readInt())
            var record = DailyAttemptsProjection.DayRecord()
            try source.beginObject()
            try source.field("attempts"); record.attempts = try Self.readStrings(source)
            try source.field("finished"); record.finished = try Self.readStrings(source)
            try source.field("firstFinishedAt")
            if let text = try source.readOptionalString() {
                do { record.firstFinishedAt = try Timestamp(parsing: text) } catch {
                    throw source.corrupted("timestamp \(text.debugDescription) \(error)")
                }
            }
            try source.endObject()
            days[day] = record
        }
        try source.endObject()
    }

    private static func write(_ strings: [String], _ sink: CompactSink) {
        sink.beginArray(strings.count)
        for s in strings { sink.write(s) }
    }

    private static func readStrings(_ source: CompactSource) throws -> [String] {
        let n = try source.beginArray()
        var strings: [String] = []
        strings.reserveCapacity(n)
        for _ in 0..<n { strings.append(try source.readString()) }
        return strings
    }
}
