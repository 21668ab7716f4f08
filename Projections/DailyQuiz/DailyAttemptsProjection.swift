import Events

/// The fold behind the daily quiz and the history: daily attempts indexed by
/// their start day. Independent of D; ``DailyQuiz`` and ``HistoryEntry`` are
/// computed at the end for the D asked.
package enum DailyAttemptsProjection {
    /// The daily attempts of one day.
    package struct DayRecord: Sendable, Hashable {
        /// Attempt ids in start order (log order).
        package var attempts: [String] = []
        /// Finished attempt ids in finish order (log order).
        package var finished: [String] = []
        /// `at` of the day's first `quiz.finished` in log order.
        package var firstFinishedAt: Timestamp?
    }

    /// Daily attempts by start day (counted ones only: started after the latest quizzes reset).
    package struct State: Sendable, Hashable {
        /// The days with a daily attempt.
        package var days: [Day: DayRecord] = [:]
        /// No day yet.
        package init() {}
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        switch step.effect {
        case .reset(let scope) where scope.covers(.quizzes):
            state.days = [:]
        case .started(let attempt) where step.counts && attempt.isDaily:
            state.days[attempt.day, default: DayRecord()].attempts.append(attempt.id)
        case .finished(let attempt) where step.counts && attempt.isDaily:
            var record = state.days[attempt.day, default: DayRecord()]
            record.finished.append(attempt.id)
            if record.firstFinishedAt == nil { record.firstFinishedAt = attempt.ending?.at }
            state.days[attempt.day] = record
        default:
            break
        }
    }
}

// MARK: - Codable
// Synthesized here because Swift synthesizes Codable only in the type's own file;
// it makes the live projector serialisable (see Projections/Snapshot/).

extension DailyAttemptsProjection.DayRecord: Codable {}
extension DailyAttemptsProjection.State: Codable {
    private enum CodingKeys: String, CodingKey { case days }

    /// Reads `{ days }` (in a snapshot, by the fast path in `DailyAttemptsProjection+Snapshot.swift`).
    package init(from decoder: any Decoder) throws {
        if let compact = decoder as? CompactDecoding, compact.source.fastPaths {
            self = try Self(compact: compact.source)
            return
        }
        self.init()
        days = try decoder.container(keyedBy: CodingKeys.self).decode([Day: DailyAttemptsProjection.DayRecord].self, forKey: .days)
    }

    /// Writes `{ days }` (in a snapshot, by the fast path in `DailyAttemptsProjection+Snapshot.swift`).
    package func encode(to encoder: any Encoder) throws {
        if let compact = encoder as? CompactEncoding, compact.sink.fastPaths {
            writeCompact(compact.sink)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(days, forKey: .days)
    }
}
