import Events

/// What a simulated attempt should show besides ordinary answers.
struct AttemptScript: Sendable {
    /// The second answer reaches the log after the third (a retried request).
    var lateAnswer = false
    /// Use hints until the balance is spent, then one more (an offline device).
    var overdraw = false
}

extension Learner {
    /// Starts an attempt: `quiz.started`, unless a glitch loses it (answers then
    /// name an unknown attempt) or reuses the previous attempt's id. Returns the
    /// attempt id and the quiz it belongs to in the log (the quiz of the id's
    /// first recorded start: a reused id keeps its first quiz), whose right
    /// choices its answers follow.
    mutating func start(_ quiz: QuizStarted, in session: inout Session, _ rng: inout SeededGenerator,
                        to sink: inout Sink) -> (attempt: String, quiz: String) {
        var started = quiz
        if let previous = lastAttempt, rng.chance(quirkRate / 2) {
            started.attempt = previous.id
        }
        let recorded = !rng.chance(quirkRate / 2)
        if recorded {
            emit(.quizStarted(started), in: session, to: &sink)
        }
        if lastAttempt?.id != started.attempt || lastAttempt?.quiz == nil {
            lastAttempt = (started.attempt, recorded ? quiz.quiz : nil)
        }
        session.pause(2...6, &rng)
        return (started.attempt, lastAttempt?.quiz ?? quiz.quiz)
    }

    /// Answers questions `range` (0-based) of an attempt at `quiz`, with hints
    /// and the occasional glitch; returns how many first answers were right.
    /// Each question is a bank item of the quiz (``items(of:count:)``), with
    /// its right choice and skill, answered right by the ``ForgettingCurve``.
    @discardableResult
    mutating func answer(_ attempt: String, of quiz: String, questions range: Range<Int>, penalty: Double,
                         script: AttemptScript = AttemptScript(), in session: inout Session,
                         _ rng: inout SeededGenerator, to sink: inout Sink) -> Int {
        let thinks = range.map { _ in Int64(rng.int(in: 6_000...45_000)) }
        let bank = items(of: quiz, count: range.upperBound)
        var correctCount = 0
        var overdrawn = false
        for (k, q) in range.enumerated() {
            let question = "q\(q + 1)"
            let item = bank[q]
            let skill = Catalog.skill(of: item)
            session.clock = session.clock.advanced(milliseconds: thinks[k] / 2)
            var boost = 0.0
            let forced = script.overdraw && !overdrawn
            if forced || rng.chance(hintAppetite) {
                if hintBalance == 0, !forced, rng.chance(0.1) {
                    hintBalance = 5
                    emit(.hintsGranted(HintsGranted(amount: 5, reason: .purchase)), in: session, to: &sink)
                    session.pause(3...20, &rng)
                }
                if hintBalance > 0 || forced || rng.chance(0.1) {
                    if hintBalance == 0 { overdrawn = true }
                    let kind: HintUsed.Kind = rng.chance(0.7) ? .fiftyFifty : .reveal
                    let uses = rng.chance(quirkRate) ? 3 : 1
                    for _ in 0..<uses {
                        emit(.hintUsed(HintUsed(attempt: attempt, question: question, hint: kind)), in: session, to: &sink)
                        hintBalance = max(0, hintBalance - 1)
                        session.pause(1...4, &rng)
                    }
                    boost = kind == .reveal ? 1 : 0.25
                }
            }
            session.clock = session.clock.advanced(milliseconds: thinks[k] - thinks[k] / 2)
            let chance = recallChance(item, firstSight: (ability[skill] ?? 0.6) - penalty + boost, at: session.clock)
            let correct = rng.chance(chance)
            remember(item, correct: correct, at: session.clock)
            let right = Catalog.rightChoice(item)
            let choice = correct ? right : (right + 1 + rng.below(3)) % 4
            let isLast = k == range.count - 1
            let late = !isLast && (script.lateAnswer ? k == 1 : rng.chance(quirkRate))
            let selected = AnswerSelected(attempt: attempt, question: question, choice: choice, correct: correct,
                                          correctChoice: right, skill: skill, ms: Int(thinks[k]), item: item)
            emit(.answerSelected(selected), in: session, to: &sink, extraDelay: late ? thinks[k + 1] + 5_000 : 0)
            if correct { correctCount += 1 }
            ability[skill] = min(0.97, (ability[skill] ?? 0.6) + 0.004)
            if rng.chance(quirkRate) {
                // A double tap: the same question answered again a moment later.
                session.pause(0...1, &rng)
                var again = selected
                again.choice = rng.below(4)
                again.correct = again.choice == right
                emit(.answerSelected(again), in: session, to: &sink)
            }
            session.pause(1...3, &rng)
        }
        return correctCount
    }

    /// Ends an attempt at `quiz` (`quiz.finished` or `quiz.abandoned`);
    /// sometimes a stale device sends one more answer afterwards.
    mutating func end(_ attempt: String, of quiz: String, finished: Bool, in session: inout Session,
                      _ rng: inout SeededGenerator, to sink: inout Sink) {
        let ended = AttemptEnded(attempt: attempt)
        emit(finished ? .quizFinished(ended) : .quizAbandoned(ended), in: session, to: &sink)
        session.pause(5...30, &rng)
        if rng.chance(quirkRate) {
            let choice = rng.below(4)
            let item = items(of: quiz, count: 1)[0]
            let stale = AnswerSelected(attempt: attempt, question: "q1", choice: choice, correct: choice == Catalog.rightChoice(item),
                                       item: item)
            emit(.answerSelected(stale), in: session, to: &sink)
            session.pause(2...10, &rng)
        }
    }

    /// A whole attempt at a category quiz, maybe abandoned, maybe retried.
    mutating func categoryQuiz(in session: inout Session, _ rng: inout SeededGenerator, to sink: inout Sink) {
        let category = rng.pick(Catalog.categories)
        let difficulty = rng.pick(Catalog.difficulties)
        let number = rng.int(in: 1...12)
        let quiz = Catalog.categoryQuiz(category, number: number, difficulty: difficulty)
        let questions = Catalog.questions(of: quiz)
        for round in 0..<2 {
            let started = QuizStarted(attempt: newAttemptID(), quiz: quiz, questions: questions,
                                      title: "\(category.name.capitalizedFirst) practice \(number)",
                                      category: category.name, difficulty: difficulty)
            let (attempt, quiz) = start(started, in: &session, &rng, to: &sink)
            let finishes = rng.chance(0.85)
            let answered = finishes ? questions : rng.int(in: 1...(questions - 1))
            let score = answer(attempt, of: quiz, questions: 0..<answered,
                               penalty: Catalog.penalty(of: difficulty), in: &session, &rng, to: &sink)
            end(attempt, of: quiz, finished: finishes, in: &session, &rng, to: &sink)
            // A weak or abandoned attempt is retried now and then.
            guard round == 0, !finishes || score * 2 < questions, rng.chance(0.35) else { return }
            session.pause(20...120, &rng)
        }
    }

    /// A diagnostic for a category not yet diagnosed: a quiz or a submission.
    mutating func diagnostic(in session: inout Session, _ rng: inout SeededGenerator, to sink: inout Sink) {
        guard let category = Catalog.categories.first(where: { !diagnosed.contains($0.name) }) else { return }
        diagnosed.insert(category.name)
        if rng.chance(0.5) {
            let started = QuizStarted(attempt: newAttemptID(), quiz: "diagnostic-\(category.name)", questions: 10,
                                      title: "\(category.name.capitalizedFirst) diagnostic",
                                      category: category.name, diagnostic: true)
            let (attempt, quiz) = start(started, in: &session, &rng, to: &sink)
            answer(attempt, of: quiz, questions: 0..<10, penalty: 0, in: &session, &rng, to: &sink)
            end(attempt, of: quiz, finished: true, in: &session, &rng, to: &sink)
        } else {
            submit(category: category, diagnostic: true, in: &session, &rng, to: &sink)
        }
    }
}

extension String {
    /// The string with its first letter upper-cased (ASCII).
    var capitalizedFirst: String {
        guard let first = unicodeScalars.first, ("a"..."z").contains(first) else { return self }
        return String(Character(Unicode.Scalar(first.value - 32) ?? first)) + String(unicodeScalars.dropFirst())
    }
}
