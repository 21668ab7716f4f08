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

    /// Every attempt started, by id.
    package private(set) var attempts: [ExactString: Attempt] = [:]
    /// How many `quizzes` or `all` resets have been folded.
    package private(set) var quizEpoch = 0

    /// Makes an empty book.
    package init() {}

    /// The attempt with this id, if it was started.
    package func attempt(_ id: String) -> Attempt? { attempts[ExactString(id)] }

    /// Whether an attempt counts now (started after the latest `quizzes`/`all` reset).
    package func counts(_ attempt: Attempt) -> Bool { attempt.quizEpoch == quizEpoch }

    /// Folds one of the user's v1 events (in log order) and says what it did.
    package mutating func apply(_ envelope: Envelope) -> Step {
        let seq = envelope.seq
        switch envelope.event {
        case .quizStarted(let started):
            let key = ExactString(started.attempt)
            if let existing = attempts[key] {
                return step(envelope, existing.day, .ignored, counts: false, [
                    Anomaly(seq: seq, kind: .duplicateAttempt,
                            detail: "quiz.started reuses attempt \(quoted(started.attempt)), already started at seq \(existing.startSeq); this start is ignored"),
                ])
            }
            let attempt = Attempt(started: started, seq: seq, at: envelope.at, quizEpoch: quizEpoch)
            attempts[key] = attempt
            return step(envelope, attempt.day, .started(attempt), counts: true, [])

        case .answerSelected(let answer):
            guard var attempt = running(envelope, answer.attempt) else { return refused(envelope, answer.attempt) }
            let question = ExactString(answer.question)
            if let first = attempt.answerSeqByQuestion[question] {
                return step(envelope, attempt.day, .ignored, counts: false, [
                    Anomaly(seq: seq, kind: .duplicateAnswer,
                            detail: "another answer to question \(quoted(answer.question)) of attempt \(quoted(answer.attempt)); the first answer (seq \(first)) counts"),
                ])
            }
            let recorded = Attempt.Answer(question: answer.question, correct: answer.correct, skill: answer.skill,
                                          seq: seq, afterHint: (attempt.hintsByQuestion[question] ?? 0) > 0)
            attempt.answers.append(recorded)
            attempt.answerSeqByQuestion[question] = seq
            if answer.correct { attempt.score += 1 }
            attempts[ExactString(attempt.id)] = attempt
            return step(envelope, attempt.day, .answered(attempt, recorded), counts: counts(attempt), [])

        case .hintUsed(let hint):
            guard var attempt = attempts[ExactString(hint.attempt)] else {
                return step(envelope, envelope.day, .hinted(hint, attempt: nil), counts: true, [
                    unknown(envelope, hint.attempt),
                ])
            }
            var anomalies: [Anomaly] = []
            if let ending = attempt.ending { anomalies.append(afterEnd(envelope, attempt, ending)) }
            let question = ExactString(hint.question)
            let n = (attempt.hintsByQuestion[question] ?? 0) + 1
            attempt.hintsByQuestion[question] = n
            attempts[ExactString(attempt.id)] = attempt
            if n > Self.hintsPerQuestion {
                anomalies.append(Anomaly(seq: seq, kind: .hintLimit,
                                         detail: "hint \(n) on question \(quoted(hint.question)) of attempt \(quoted(hint.attempt)); at most \(Self.hintsPerQuestion) per question"))
            }
            return step(envelope, attempt.day, .hinted(hint, attempt: attempt), counts: counts(attempt), anomalies)

        case .quizFinished(let end), .quizAbandoned(let end):
            guard var attempt = running(envelope, end.attempt) else { return refused(envelope, end.attempt) }
            let finished = envelope.event.type == .quizFinished
            attempt.ending = Attempt.Ending(kind: finished ? .finished : .abandoned, seq: seq, at: envelope.at)
            attempts[ExactString(attempt.id)] = attempt
            return step(envelope, attempt.day, finished ? .finished(attempt) : .abandoned(attempt),
                        counts: counts(attempt), [])

        case .puzzleCompleted(let p):
            return step(envelope, envelope.day, .puzzle(p, completed: true), counts: true, [])
        case .puzzleFailed(let p):
            return step(envelope, envelope.day, .puzzle(p, completed: false), counts: true, [])
        case .submissionMade(let s):
            return step(envelope, envelope.day, .submitted(s), counts: true, [])
        case .hintsGranted(let g):
            return step(envelope, envelope.day, .granted(g), counts: true, [])
        case .progressReset(let r):
            if r.scope.covers(.quizzes) { quizEpoch += 1 }
            return step(envelope, envelope.day, .reset(r.scope), counts: true, [])
        }
    }

    /// The attempt named by an answer, finish or abandon, if it was started and has not ended.
    private func running(_ envelope: Envelope, _ id: String) -> Attempt? {
        guard let attempt = attempts[ExactString(id)], attempt.ending == nil else { return nil }
        return attempt
    }

    /// The step of an answer, finish or abandon whose attempt is unknown or over.
    private func refused(_ envelope: Envelope, _ id: String) -> Step {
        guard let attempt = attempts[ExactString(id)] else {
            return step(envelope, envelope.day, .ignored, counts: false, [unknown(envelope, id)])
        }
        let ending = attempt.ending.map { afterEnd(envelope, attempt, $0) }
        return step(envelope, attempt.day, .ignored, counts: false, ending.map { [$0] } ?? [])
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

    private func step(_ envelope: Envelope, _ day: Day, _ effect: Step.Effect, counts: Bool,
                      _ anomalies: [Anomaly]) -> Step {
        Step(envelope: envelope, day: day, effect: effect, counts: counts, anomalies: anomalies)
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
