import Events

/// The one place that keeps attempt bookkeeping for one user: which attempt an
/// event belongs to, the attempt's start day, its first answers, the hints per
/// question, how it ended, and the `quizzes` resets.
///
/// Fold the user's v1 events in log order with ``apply(_:)``; each call returns
/// the ``Step`` every projection reduces. The book itself is never reset: a
/// reset only makes older attempts stop counting (``Step/counts``), and the
/// attempt anomalies keep being found across resets.
package struct AttemptsBook: Sendable {
    /// At most this many hints per question; the next one is a `hint_limit` anomaly.
    package static let hintsPerQuestion = 2

    /// Every attempt started, in the order started. The lifecycle names an
    /// attempt by its place here (``AttemptStore/Ref`` is an `Int`), so the book
    /// changes each attempt in place: no copy of it is alive while an answer is
    /// appended, and one attempt of n answers folds in time linear in n.
    package private(set) var attempts: [Attempt] = []
    /// Each started attempt's place in ``attempts``, by id.
    private var places: [ExactString: Int] = [:]
    /// How many `quizzes` or `all` resets have been folded (the lifecycle moves it on).
    package private(set) var quizEpoch = 0

    /// Makes an empty book.
    package init() {}

    /// The attempt with this id, if it was started.
    package func attempt(_ id: String) -> Attempt? { places[ExactString(id)].map { attempts[$0] } }

    /// Whether an attempt counts now (started after the latest `quizzes`/`all` reset).
    package func counts(_ attempt: Attempt) -> Bool {
        AttemptLifecycle.counts(startEpoch: attempt.quizEpoch, epoch: quizEpoch)
    }

    /// Folds one of the user's v1 events (in log order) and says what it did:
    /// ``AttemptLifecycle`` decides, the book adds the anomalies and what counts.
    package mutating func apply(_ envelope: Envelope) -> Step {
        let seq = envelope.seq
        let (verdict, day) = AttemptLifecycle.apply(envelope, to: &self)
        func step(_ effect: Step.Effect, counts: Bool, _ anomalies: [Anomaly] = []) -> Step {
            Step(envelope: envelope, day: day, effect: effect, counts: counts, anomalies: anomalies)
        }
        switch verdict {
        case .started(let place):
            return step(.started(attempts[place]), counts: true)
        case .duplicateStart(let place):
            let existing = attempts[place]
            return step(.ignored, counts: false, [
                Anomaly(seq: seq, kind: .duplicateAttempt,
                        detail: "quiz.started reuses attempt \(quoted(existing.id)), already started at seq \(existing.startSeq); this start is ignored"),
            ])
        case .answered(let place):
            let attempt = attempts[place]
            guard let recorded = attempt.answers.last else { return step(.ignored, counts: false) }
            return step(.answered(attempt, recorded), counts: counts(attempt))
        case .duplicateAnswer(let place):
            guard case .answerSelected(let answer) = envelope.event else { return step(.ignored, counts: false) }
            let first = attempts[place].answerSeqByQuestion[ExactString(answer.question)] ?? 0
            return step(.ignored, counts: false, [
                Anomaly(seq: seq, kind: .duplicateAnswer,
                        detail: "another answer to question \(quoted(answer.question)) of attempt \(quoted(answer.attempt)); the first answer (seq \(first)) counts"),
            ])
        case .hinted(let place, let afterEnd):
            guard case .hintUsed(let hint) = envelope.event else { return step(.ignored, counts: false) }
            guard let place else { return step(.hinted(hint, attempt: nil), counts: true, [unknown(envelope, hint.attempt)]) }
            let attempt = attempts[place]
            var anomalies: [Anomaly] = []
            if afterEnd, let ending = attempt.ending { anomalies.append(self.afterEnd(envelope, attempt, ending)) }
            let n = attempt.hintsByQuestion[ExactString(hint.question)] ?? 0
            if n > Self.hintsPerQuestion {
                anomalies.append(Anomaly(seq: seq, kind: .hintLimit,
                                         detail: "hint \(n) on question \(quoted(hint.question)) of attempt \(quoted(hint.attempt)); at most \(Self.hintsPerQuestion) per question"))
            }
            return step(.hinted(hint, attempt: attempt), counts: counts(attempt), anomalies)
        case .ended(let place, let finished, let counts):
            let attempt = attempts[place]
            return step(finished ? .finished(attempt) : .abandoned(attempt), counts: counts)
        case .reset(let scope):
            return step(.reset(scope), counts: true)
        case .unknown:
            return step(.ignored, counts: false, [unknown(envelope, envelope.event.attempt ?? "")])
        case .afterEnd(let place):
            let attempt = attempts[place]
            return step(.ignored, counts: false, attempt.ending.map { [self.afterEnd(envelope, attempt, $0)] } ?? [])
        case .other:
            switch envelope.event {
            case .puzzleCompleted(let p): return step(.puzzle(p, completed: true), counts: true)
            case .puzzleFailed(let p): return step(.puzzle(p, completed: false), counts: true)
            case .submissionMade(let s): return step(.submitted(s), counts: true)
            case .hintsGranted(let g): return step(.granted(g), counts: true)
            case .streakFreezeGranted(let g): return step(.freezeGranted(g), counts: true)
            case .streakPaused(let p): return step(.paused(p), counts: true)
            default: return step(.ignored, counts: false)
            }
        }
    }

    private func unknown(_ envelope: Envelope, _ id: String) -> Anomaly {
        Anomaly(seq: envelope.seq, kind: .unknownAttempt,
                detail: "\(envelope.event.type) names attempt \(quoted(id)), which this user has not started earlier in the log")
    }

    private func afterEnd(_ envelope: Envelope, _ attempt: Attempt, _ ending: Attempt.Ending) -> Anomaly {
        let how = ending.kind == .finished ? "finished" : "abandoned"
        return Anomaly(seq: envelope.seq, kind: .afterEnd,
                       detail: "\(envelope.event.type) for attempt \(quoted(attempt.id)), which was already \(how) at seq \(ending.seq)")
    }
}

/// A string in double quotes for a message, with `"` and `\` escaped.
func quoted(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default: out.unicodeScalars.append(c)
        }
    }
    return out + "\""
}

// MARK: - The lifecycle's storage

extension AttemptsBook: AttemptStore {
    typealias Input = Envelope

    // An attempt is named by its place in `attempts`: each change below is made
    // in place, on the only copy.
    func find(_ id: String) -> Int? { places[ExactString(id)] }
    func day(_ place: Int) -> Day { attempts[place].day }
    func isRunning(_ place: Int) -> Bool { attempts[place].ending == nil }

    mutating func start(_ started: QuizStarted, _ envelope: Envelope) -> Int {
        places[ExactString(started.attempt)] = attempts.count
        attempts.append(Attempt(started: started, seq: envelope.seq, at: envelope.at, quizEpoch: quizEpoch))
        return attempts.count - 1
    }

    mutating func answer(_ place: Int, _ answer: AnswerSelected, _ envelope: Envelope) -> Bool {
        // One access to the attempt where it lies (reading its dictionaries
        // through `attempts[place]` copied the whole attempt, twice).
        attempts[place].recordIfFirst(answer, seq: envelope.seq)
    }

    mutating func hint(_ place: Int, _ hint: HintUsed) {
        attempts[place].hintsByQuestion[ExactString(hint.question), default: 0] += 1
    }

    mutating func end(_ place: Int, finished: Bool, _ envelope: Envelope) {
        attempts[place].ending = Attempt.Ending(kind: finished ? .finished : .abandoned, seq: envelope.seq, at: envelope.at)
    }

    mutating func resetQuizzes() { quizEpoch += 1 }

    func counts(_ place: Int) -> Bool { counts(attempts[place]) }
}
