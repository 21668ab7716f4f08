import Events

extension Learner {
    /// One to three tries at cryptogram puzzles, completed or failed, with times.
    mutating func puzzles(in session: inout Session, _ rng: inout SeededGenerator, to sink: inout Sink) {
        for _ in 0..<rng.int(in: 1...3) {
            let puzzle = "crypt-" + Day.pad(rng.int(in: 1...60), 3)
            let encoding = rng.pick(Catalog.encodings)
            let tenths = rng.int(in: 250...4_000)
            session.clock = session.clock.advanced(milliseconds: Int64(tenths) * 100)
            let seconds = Seconds(literal: tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)")
            if rng.chance(0.7) {
                emit(.puzzleCompleted(PuzzlePlayed(puzzle: puzzle, encoding: encoding, seconds: seconds)),
                     in: session, to: &sink)
            } else {
                let played = PuzzlePlayed(puzzle: puzzle, encoding: encoding, seconds: rng.chance(0.6) ? seconds : nil)
                emit(.puzzleFailed(played), in: session, to: &sink)
            }
            session.pause(10...90, &rng)
        }
    }

    /// A lesson or passage submitted with its answers (a lesson now and then has none).
    mutating func submit(category: Catalog.Category? = nil, diagnostic: Bool = false, in session: inout Session,
                         _ rng: inout SeededGenerator, to sink: inout Sink) {
        let passage = category == nil && rng.chance(0.4)
        let subject = category ?? (passage ? Catalog.categories[0] : rng.pick(Catalog.categories))
        let content = passage ? "passage-\(rng.int(in: 1...30))" : "lesson-\(subject.name)-\(rng.int(in: 1...15))"
        let count = !diagnostic && !passage && rng.chance(0.05) ? 0 : rng.int(in: 3...8)
        var answers: [SubmissionMade.Answer] = []
        for q in 0..<count {
            // The content's questions are bank items, the same for every learner: each its skill and its right choice.
            let question = "\(q + 1)"
            let item = Catalog.item(ofContent: content, category: subject.name, question: q)
            let skill = Catalog.skill(of: item)
            let correct = rng.chance(recallChance(item, firstSight: ability[skill] ?? 0.6, at: session.clock))
            remember(item, correct: correct, at: session.clock)
            let right = Catalog.rightChoice(item)
            answers.append(SubmissionMade.Answer(question: question, choice: correct ? right : (right + 1 + rng.below(3)) % 4,
                                                 correct: correct, skill: skill, item: item))
            ability[skill] = min(0.97, (ability[skill] ?? 0.6) + 0.004)
        }
        let seconds = rng.int(in: 60...900)
        session.clock = session.clock.advanced(seconds: seconds)
        let made = SubmissionMade(content: content, kind: passage ? .passage : .lesson, category: subject.name,
                                  diagnostic: diagnostic ? true : nil, seconds: seconds, answers: answers)
        emit(.submissionMade(made), in: session, to: &sink)
        session.pause(10...60, &rng)
    }
}
