import Events

/// Per puzzle and encoding: attempts, completions, failures, best time, the latest attempt.
package enum PuzzlesProjection {
    /// A puzzle in one encoding.
    package struct Key: Sendable, Hashable, Comparable {
        /// The puzzle id.
        package var puzzle: ExactString
        /// The encoding.
        package var encoding: ExactString

        package static func < (a: Key, b: Key) -> Bool {
            // `==` (``ExactString``'s own), not `!=` (Equatable's, reached through the witness table).
            a.puzzle == b.puzzle ? a.encoding < b.encoding : a.puzzle < b.puzzle
        }
    }

    /// The summaries by puzzle and encoding (since the latest puzzles reset), sorted by puzzle, then encoding.
    package typealias State = SummaryTable<Key, PuzzleSummary>

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        switch step.effect {
        case .reset(let scope) where scope.covers(.puzzles):
            state.byKey = [:]
        case .puzzle(let played, let completed):
            let key = Key(puzzle: ExactString(played.puzzle), encoding: ExactString(played.encoding))
            let latest = PuzzleSummary.Latest(outcome: completed ? .completed : .failed,
                                              at: step.envelope.at, seconds: played.seconds)
            // One lookup, the summary changed in place (a new puzzle's made there).
            update(&state.byKey[key, default: PuzzleSummary(puzzle: played.puzzle, encoding: played.encoding, attempts: 0,
                                                            completed: 0, failed: 0, bestSeconds: nil, latest: latest)],
                   played, completed: completed, latest: latest)
        default:
            break
        }
    }

    /// `summary` after one more attempt of its puzzle.
    private static func update(_ summary: inout PuzzleSummary, _ played: PuzzlePlayed, completed: Bool, latest: PuzzleSummary.Latest) {
        summary.attempts += 1
        summary.latest = latest
        if completed {
            summary.completed += 1
            if let seconds = played.seconds, summary.bestSeconds.map({ seconds < $0 }) ?? true {
                summary.bestSeconds = seconds
            }
        } else {
            summary.failed += 1
        }
    }
}
