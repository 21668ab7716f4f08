import Events

// A hand-written fast path for the per-quiz summaries in a snapshot: the same
// bytes as their `Codable` form through `CompactEncoder` (a test compares them).

extension QuizzesProjection.State {
    /// Writes `{ quizzes: [id, summary, ...] }`.
    func writeCompact(_ sink: CompactSink) {
        sink.beginObject()
        sink.field("quizzes")
        sink.beginArray(2 * quizzes.count)
        for (id, s) in quizzes {
            sink.write(id.value)
            sink.beginObject()
            sink.field("quiz"); sink.write(s.quiz)
            sink.field("attempts"); sink.write(s.attempts)
            sink.field("finished"); sink.write(s.finished)
            sink.field("abandoned"); sink.write(s.abandoned)
            sink.field("bestScore"); sink.write(s.bestScore)
            sink.field("bestPercent"); sink.write(s.bestPercent)
            sink.field("latestPercent"); sink.write(s.latestPercent)
            sink.field("fastestSeconds"); sink.write(s.fastestSeconds.map { Int($0.nanoseconds) })
            sink.endObject()
        }
        sink.endObject()
    }

    /// Reads what ``writeCompact(_:)`` writes.
    init(compact source: CompactSource) throws {
        self.init()
        try source.beginObject()
        try source.field("quizzes")
        let n = try source.beginArray()
        guard n % 2 == 0 else { throw source.corrupted("an odd number of quiz ids and summaries") }
        quizzes.reserveCapacity(n / 2)
        for _ in 0..<(n / 2) {
            let id = ExactString(try source.readString())
            try source.beginObject()
            try source.field("quiz"); var s = QuizSummary(quiz: try source.readString())
            try source.field("attempts"); s.attempts = try source.readInt()
            try source.field("finished"); s.finished = try source.readInt()
            try source.field("abandoned"); s.abandoned = try source.readInt()
            try source.field("bestScore"); s.bestScore = try source.readOptionalInt()
            try source.field("bestPercent"); s.bestPercent = try source.readOptionalInt()
            try source.field("latestPercent"); s.latestPercent = try source.readOptionalInt()
            try source.field("fastestSeconds")
            s.fastestSeconds = try source.readOptionalInt().map { ExactSeconds(nanoseconds: Int64($0)) }
            try source.endObject()
            quizzes[id] = s
        }
        try source.endObject()
    }
}
