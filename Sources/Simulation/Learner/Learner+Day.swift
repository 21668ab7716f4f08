import Events

/// How a learner takes the daily quiz on a given day.
enum DailyPlan: Sendable {
    /// Not today.
    case skip
    /// Start, answer everything, finish; a poor result is sometimes retried.
    case finish(AttemptScript)
    /// Answer a few in the morning, the rest in the evening (maybe on another device).
    case resume
    /// Quit part-way; sometimes start again and finish.
    case abandon
    /// Start, answer a few, never come back.
    case leaveOpen
    /// Start at 23:4x and finish after midnight: it still counts for the start day.
    case beforeMidnight
}

extension Learner {
    /// Lives one simulated day: up to three sessions (morning, evening, late night).
    mutating func live(dayIndex: Int, day: Day, seed: UInt64, into sink: inout Sink) {
        guard dayIndex >= joinDay, dayIndex < leaveDay else { return }
        var rng = SeededGenerator(seed: seed, streams: UInt64(index), UInt64(dayIndex))
        let forced = showcase && dayIndex < 5
        let weekend = day.weekday == 0 || day.weekday == 6
        guard forced || rng.chance(diligence * (weekend ? 0.8 : 1)) else { return }

        let offset = zone(on: dayIndex).offsetMinutes(on: day)
        let midnight = Instant.midnight(of: day, offsetMinutes: offset)
        var morning = Session(clock: midnight.advanced(seconds: startHour * 3600), offset: offset,
                              device: "phone-\(id)", digits: fractionDigits)
        morning.pause(0...3_000, &rng)
        let plan = dailyPlan(dayIndex, &rng)

        if !seeded {
            seeded = true
            hintBalance += 3
            // In the learner's offset: the grant is on the learner's first day, not on the UTC day
            // before it (a report would open with a day where nobody did anything).
            var server = Session(clock: morning.clock.advanced(seconds: -40), offset: offset, device: "server", digits: 0)
            emit(.hintsGranted(HintsGranted(amount: 3, reason: .seed)), in: server, to: &sink)
            server.pause(1...2, &rng)
        }
        if diagnosed.count < Catalog.categories.count, dayIndex - joinDay < 4, rng.chance(0.5) {
            diagnostic(in: &morning, &rng, to: &sink)
        }
        var resumeLater: (attempt: String, quiz: String, answered: Int)?
        switch plan {
        case .skip, .beforeMidnight: break
        case .finish(let script): dailyQuiz(day, script: script, in: &morning, &rng, to: &sink)
        case .abandon: dailyQuiz(day, abandon: true, in: &morning, &rng, to: &sink)
        case .leaveOpen: dailyQuiz(day, stopAfter: rng.int(in: 1...3), in: &morning, &rng, to: &sink)
        case .resume:
            let answered = rng.int(in: 1...3)
            let open = dailyQuiz(day, stopAfter: answered, in: &morning, &rng, to: &sink)
            resumeLater = (open.attempt, open.quiz, answered)
        }
        if followsPlan {
            // The plan's review quiz, on a stream of its own so other draws stay as they were.
            var own = SeededGenerator(seed: seed, streams: UInt64(index), UInt64(dayIndex) | 1 << 62)
            reviewQuiz(day, in: &morning, &own, to: &sink)
        }
        if rng.chance(0.3) { puzzles(in: &morning, &rng, to: &sink) }

        if resumeLater != nil || rng.chance(0.55) {
            var evening = eveningSession(after: morning, midnight: midnight, &rng)
            if let resume = resumeLater {
                answer(resume.attempt, of: resume.quiz, questions: resume.answered..<5, penalty: 0,
                       in: &evening, &rng, to: &sink)
                end(resume.attempt, of: resume.quiz, finished: true, in: &evening, &rng, to: &sink)
                dailyFinished += 1
            }
            if let reset, reset.day == dayIndex {
                emit(.progressReset(ProgressReset(scope: reset.scope)), in: evening, to: &sink)
                evening.pause(5...30, &rng)
            }
            if rng.chance(0.5) { categoryQuiz(in: &evening, &rng, to: &sink) }
            if rng.chance(0.45) { submit(in: &evening, &rng, to: &sink) }
            if rng.chance(0.2) { puzzles(in: &evening, &rng, to: &sink) }
        }
        if case .beforeMidnight = plan {
            var late = Session(clock: midnight.advanced(seconds: 23 * 3600 + 44 * 60), offset: offset,
                               device: "phone-\(id)", digits: fractionDigits)
            late.pause(0...420, &rng)
            dailyQuiz(day, script: AttemptScript(), in: &late, &rng, to: &sink)
        }
        rewardStreaks(at: morning, &rng, to: &sink)
    }

    private func dailyPlan(_ dayIndex: Int, _ rng: inout SeededGenerator) -> DailyPlan {
        if showcase {
            switch dayIndex {
            case 1: return .finish(AttemptScript(lateAnswer: true))
            case 2: return .finish(AttemptScript(overdraw: true))
            case 3: return .beforeMidnight
            case 4: return .resume
            default: break
            }
        }
        if rng.chance(nightOwl) { return .beforeMidnight }
        let roll = rng.unit()
        switch roll {
        case ..<0.10: return .skip
        case ..<0.20: return .resume
        case ..<0.28: return .abandon
        case ..<0.31: return .leaveOpen
        default: return .finish(AttemptScript())
        }
    }

    /// The second sitting of the day, hours after the first; now and then on a
    /// tablet that was offline and syncs the next morning.
    private func eveningSession(after morning: Session, midnight: Instant, _ rng: inout SeededGenerator) -> Session {
        var earliest = max(morning.clock.advanced(seconds: 2 * 3600), midnight.advanced(seconds: 17 * 3600))
        // A learner who follows the plan has a longer morning (the review quiz): their evening
        // starts by 19:30 (before a pause of up to 3 h), so it never runs into a day the demo does not have.
        if followsPlan { earliest = min(earliest, midnight.advanced(seconds: 19 * 3600 + 1800)) }
        let offline = rng.chance(offlineTendency)
        var evening = Session(clock: earliest, offset: morning.offset,
                              device: offline || rng.chance(0.3) ? "tablet-\(id)" : morning.device,
                              digits: morning.digits)
        evening.pause(0...3 * 3600, &rng)
        if offline { evening.syncDelay = Int64(rng.int(in: 9...15)) * 3_600_000 }
        return evening
    }

    /// The daily quiz: one attempt, or two when the first is abandoned or poor
    /// and the learner tries again. With `stopAfter`, answers that many and
    /// returns the open attempt and the quiz it belongs to.
    @discardableResult
    mutating func dailyQuiz(_ day: Day, script: AttemptScript = AttemptScript(), abandon: Bool = false,
                            stopAfter: Int? = nil, in session: inout Session, _ rng: inout SeededGenerator,
                            to sink: inout Sink) -> (attempt: String, quiz: String) {
        let (daily, theme) = Catalog.dailyQuiz(on: day)
        let questions = 5
        var attempt = "", quiz = daily
        for round in 0..<2 {
            let started = QuizStarted(attempt: newAttemptID(), quiz: daily, questions: questions, daily: true,
                                      title: theme.title, category: theme.category)
            (attempt, quiz) = start(started, in: &session, &rng, to: &sink)
            if let stopAfter {
                answer(attempt, of: quiz, questions: 0..<stopAfter, penalty: 0, script: script,
                       in: &session, &rng, to: &sink)
                return (attempt, quiz)
            }
            let quits = abandon && round == 0
            let answered = quits ? rng.int(in: 1...(questions - 1)) : questions
            let score = answer(attempt, of: quiz, questions: 0..<answered, penalty: 0,
                               script: round == 0 ? script : AttemptScript(), in: &session, &rng, to: &sink)
            end(attempt, of: quiz, finished: !quits, in: &session, &rng, to: &sink)
            if !quits { dailyFinished += 1 }
            guard round == 0, quits || score < 3, rng.chance(quits ? 0.5 : 0.3) else { break }
            session.pause(30...600, &rng)
        }
        return (attempt, quiz)
    }

    /// One hint as a reward for every seven finished daily quizzes.
    private mutating func rewardStreaks(at session: Session, _ rng: inout SeededGenerator, to sink: inout Sink) {
        let earned = dailyFinished / 7
        guard earned > rewarded else { return }
        rewarded = earned
        hintBalance += 1
        var server = Session(clock: session.clock.advanced(seconds: 60), offset: 0, device: "server",
                             digits: 0, zulu: true)
        server.pause(0...30, &rng)
        emit(.hintsGranted(HintsGranted(amount: 1, reason: .reward)), in: server, to: &sink)
    }
}
