import Events

/// Per quiz id, every mode: attempts, ends, best and latest results, fastest finish.
package enum QuizzesProjection {
    /// The summaries by quiz id (counted attempts only).
    package struct State: Sendable, Hashable {
        /// Summary per quiz.
        package var quizzes: [ExactString: QuizSummary] = [:]
        /// No quiz yet.
        package init() {}

        /// The summaries sorted by quiz id (code point).
        package var sorted: [QuizSummary] {
            quizzes.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        if case .reset(let scope) = step.effect, scope.covers(.quizzes) { state.quizzes = [:]; return }
        guard let attempt = step.countedAttempt else { return }
        let key = ExactString(attempt.quiz)
        var summary = state.quizzes[key] ?? QuizSummary(quiz: attempt.quiz)
        switch step.effect {
        case .started:
            summary.attempts += 1
        case .finished:
            summary.finished += 1
            summary.bestScore = max(summary.bestScore ?? attempt.score, attempt.score)
            if let percent = attempt.percent {
                summary.bestPercent = max(summary.bestPercent ?? percent, percent)
            }
            summary.latestPercent = attempt.percent
            if let seconds = attempt.finishSeconds {
                summary.fastestSeconds = min(summary.fastestSeconds ?? seconds, seconds)
            }
        case .abandoned:
            summary.abandoned += 1
            summary.latestPercent = attempt.percent
        default:
            return
        }
        state.quizzes[key] = summary
    }
}

// MARK: - Codable
// Written by hand to take the snapshot's fast path; it makes the live
// projector serialisable (see Projections/Snapshot/).

extension QuizzesProjection.State: Codable {
    private enum CodingKeys: String, CodingKey { case quizzes }

    /// Reads `{ quizzes }` (in a snapshot, by the fast path in `QuizzesProjection+Snapshot.swift`).
    package init(from decoder: any Decoder) throws {
        if let compact = decoder as? CompactDecoding, compact.source.fastPaths {
            self = try Self(compact: compact.source)
            return
        }
        self.init()
        quizzes = try decoder.container(keyedBy: CodingKeys.self).decode([ExactString: QuizSummary].self, forKey: .quizzes)
    }

    /// Writes `{ quizzes }` (in a snapshot, by the fast path in `QuizzesProjection+Snapshot.swift`).
    package func encode(to encoder: any Encoder) throws {
        if let compact = encoder as? CompactEncoding, compact.sink.fastPaths {
            writeCompact(compact.sink)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(quizzes, forKey: .quizzes)
    }
}
