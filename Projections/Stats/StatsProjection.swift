import Events

/// The progress page's totals, kept per reset scope (quizzes, puzzles,
/// submissions) and summed at the end.
package enum StatsProjection {
    /// Totals per scope.
    package struct State: Sendable, Hashable {
        /// Finished quizzes (counted attempts).
        package var quizzesCompleted = 0
        /// First answers of counted attempts.
        package var quizAnswers = 0
        /// The correct ones, as given.
        package var quizCorrect = 0
        /// Days with a counted first answer, finish or abandon (on the attempt's start day).
        package var quizDays: Set<Day> = []
        /// Completed puzzles.
        package var puzzlesCompleted = 0
        /// Days with a puzzle attempt.
        package var puzzleDays: Set<Day> = []
        /// Submissions.
        package var submissions = 0
        /// Submission answers.
        package var submissionAnswers = 0
        /// The correct ones.
        package var submissionCorrect = 0
        /// Days with a submission.
        package var submissionDays: Set<Day> = []
        /// Time spent per scope: counted quiz answers' `ms`, puzzles' and submissions' `seconds`.
        package var quizTime = TimeSpent(), puzzleTime = TimeSpent(), submissionTime = TimeSpent()

        /// Time spent over the three scopes, with its days.
        package var time: TimeSpent {
            var time = quizTime
            time.add(puzzleTime)
            time.add(submissionTime)
            return time
        }

        /// Nothing yet.
        package init() {}

        /// Answers counted: first answers of counted attempts and every submission answer.
        package var answered: Int { quizAnswers + submissionAnswers }
        /// The correct ones, as given.
        package var correct: Int { quizCorrect + submissionCorrect }

        /// A value that changes whenever ``stats`` can change, far cheaper to
        /// read (counts, not the union of the day sets): what `explain` watches.
        package var changeMark: [Int64] {
            [quizzesCompleted, quizAnswers, quizCorrect, quizDays.count, puzzlesCompleted, puzzleDays.count,
             submissions, submissionAnswers, submissionCorrect, submissionDays.count].map(Int64.init)
                + [quizTime.nanoseconds, puzzleTime.nanoseconds, submissionTime.nanoseconds]
        }

        /// The learner's stats: no union of the day sets, no merge of the
        /// days' times (the learning days are kept as they change), so
        /// asking after every event (`explain`) costs no more than the events.
        package var stats: Stats {
            var time = TimeSpent()
            for part in [quizTime, puzzleTime, submissionTime] { time.add(nanoseconds: part.nanoseconds) }
            return Stats(quizzesCompleted: quizzesCompleted, questionsAnswered: answered,
                         correct: correct, puzzlesCompleted: puzzlesCompleted,
                         submissions: submissions, firstActive: firstActive, lastActive: lastActive,
                         activeDays: learningDays.count, timeSpent: time.seconds)
        }

        /// The learning days of the three scopes together, each with the
        /// number of scopes that hold it; the first and the last of them.
        private var learningDays: [Day: Int] = [:]
        private var firstActive: Day?, lastActive: Day?

        /// A scope's set of learning days (a switch: a key path is applied
        /// through the runtime, ~300 instructions an event).
        fileprivate enum Scope { case quiz, puzzle, submission }

        /// Inserts `day` in `scope`'s days; whether it was new.
        private mutating func insert(_ day: Day, in scope: Scope) -> Bool {
            switch scope {
            case .quiz: quizDays.insert(day).inserted
            case .puzzle: puzzleDays.insert(day).inserted
            case .submission: submissionDays.insert(day).inserted
            }
        }

        /// `scope`'s days, emptied.
        private mutating func take(_ scope: Scope) -> Set<Day> {
            var days: Set<Day> = []
            switch scope {
            case .quiz: swap(&days, &quizDays)
            case .puzzle: swap(&days, &puzzleDays)
            case .submission: swap(&days, &submissionDays)
            }
            return days
        }

        /// Adds `day` to a scope's learning days.
        fileprivate mutating func add(_ day: Day, to scope: Scope) {
            guard insert(day, in: scope) else { return }
            learningDays[day, default: 0] += 1
            firstActive = min(firstActive ?? day, day)
            lastActive = max(lastActive ?? day, day)
        }

        /// Clears a scope's learning days (a reset).
        fileprivate mutating func clear(_ scope: Scope) {
            for day in take(scope) {
                let left = (learningDays[day] ?? 1) - 1
                learningDays[day] = left > 0 ? left : nil
            }
            (firstActive, lastActive) = (learningDays.keys.min(), learningDays.keys.max())
        }
    }

    /// Folds one step.
    package static func reduce(into state: inout State, _ step: Step) {
        switch step.effect {
        case .reset(let scope):
            if scope.covers(.quizzes) {
                state.quizzesCompleted = 0; state.quizAnswers = 0; state.quizCorrect = 0; state.clear(.quiz)
                state.quizTime = TimeSpent()
            }
            if scope.covers(.puzzles) { state.puzzlesCompleted = 0; state.clear(.puzzle); state.puzzleTime = TimeSpent() }
            if scope.covers(.submissions) {
                state.submissions = 0; state.submissionAnswers = 0; state.submissionCorrect = 0
                state.clear(.submission); state.submissionTime = TimeSpent()
            }
        case .answered(_, let answer) where step.counts:
            state.quizAnswers += 1
            if answer.correct { state.quizCorrect += 1 }
            if case .answerSelected(let a) = step.envelope.event, let ms = a.ms { state.quizTime.add(ms: ms, on: step.day) }
            state.add(step.day, to: .quiz)
        case .finished where step.counts:
            state.quizzesCompleted += 1
            state.add(step.day, to: .quiz)
        case .abandoned where step.counts:
            state.add(step.day, to: .quiz)
        case .puzzle(let p, let completed):
            if let seconds = p.seconds { state.puzzleTime.add(seconds, on: step.day) }
            if completed { state.puzzlesCompleted += 1 }
            state.add(step.day, to: .puzzle)
        case .submitted(let s):
            state.submissions += 1
            state.submissionAnswers += s.answers.count
            state.submissionCorrect += s.correctCount
            state.add(step.day, to: .submission)
            if let seconds = s.seconds { state.submissionTime.add(wholeSeconds: seconds, on: step.day) }
        default:
            break
        }
    }
}
