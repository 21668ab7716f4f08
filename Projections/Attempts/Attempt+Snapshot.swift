import Events

// Hand-written fast paths for the attempts book in a snapshot: the same bytes
// as its `Codable` form through `CompactEncoder` (a test compares them), made
// without `Codable`'s containers, which cost more than the data. The book is
// most of a heavy learner's snapshot.

extension AttemptsBook {
    /// Writes `{ attempts: [id, attempt, ...], quizEpoch }`.
    func writeCompact(_ sink: CompactSink) throws {
        sink.beginObject()
        sink.field("attempts")
        sink.beginArray(2 * attempts.count)
        for (id, attempt) in attempts {
            sink.write(id.value)
            try attempt.writeCompact(sink)
        }
        sink.field("quizEpoch")
        sink.write(quizEpoch)
        sink.endObject()
    }

    /// Reads what ``writeCompact(_:)`` writes.
    static func readCompact(_ source: CompactSource) throws -> (attempts: [ExactString: Attempt], quizEpoch: Int) {
        try source.beginObject()
        try source.field("attempts")
        let n = try source.beginArray()
        guard n % 2 == 0 else { throw source.corrupted("an odd number of attempt ids and attempts") }
        var attempts: [ExactString: Attempt] = [:]
        attempts.reserveCapacity(n / 2)
        for _ in 0..<(n / 2) {
            let id = ExactString(try source.readString())
            attempts[id] = try Attempt(compact: source)
        }
        try source.field("quizEpoch")
        let epoch = try source.readInt()
        try source.endObject()
        return (attempts, epoch)
    }
}

extension Attempt {
    /// Writes the attempt's fields in declaration order.
    func writeCompact(_ sink: CompactSink) throws {
        sink.beginObject()
        sink.field("id"); sink.write(id)
        sink.field("start"); try start.writeCompact(sink)
        sink.field("startSeq"); sink.write(startSeq)
        sink.field("startedAt"); sink.write(startedAt.text)
        sink.field("quizEpoch"); sink.write(quizEpoch)
        sink.field("answers")
        sink.beginArray(answers.count)
        for answer in answers {
            sink.beginObject()
            sink.field("question"); sink.write(answer.question)
            sink.field("correct"); sink.write(answer.correct)
            sink.field("skill"); sink.write(answer.skill)
            sink.field("seq"); sink.write(answer.seq)
            sink.field("afterHint"); sink.write(answer.afterHint)
            sink.endObject()
        }
        sink.field("answerSeqByQuestion"); Self.write(answerSeqByQuestion, sink)
        sink.field("hintsByQuestion"); Self.write(hintsByQuestion, sink)
        sink.field("ending")
        if let ending {
            sink.beginObject()
            sink.field("kind")
            sink.beginObject()
            switch ending.kind {
            case .finished: sink.field("finished")
            case .abandoned: sink.field("abandoned")
            }
            sink.beginObject()
            sink.endObject()
            sink.endObject()
            sink.field("seq"); sink.write(ending.seq)
            sink.field("at"); sink.write(ending.at.text)
            sink.endObject()
        } else {
            sink.writeNil()
        }
        sink.field("score"); sink.write(score)
        sink.endObject()
    }

    /// Reads what ``writeCompact(_:)`` writes.
    init(compact source: CompactSource) throws {
        try source.beginObject()
        try source.field("id"); let id = try source.readString()
        try source.field("start"); let start = try QuizStarted(compact: source)
        try source.field("startSeq"); let startSeq = try source.readInt()
        try source.field("startedAt"); let startedAt = try Self.timestamp(source)
        try source.field("quizEpoch"); let quizEpoch = try source.readInt()
        guard CodePoint.equal(id, start.attempt) else { throw source.corrupted("attempt \(id) holds the start of \(start.attempt)") }
        self.init(started: start, seq: startSeq, at: startedAt, quizEpoch: quizEpoch)
        try source.field("answers")
        let n = try source.beginArray()
        answers.reserveCapacity(n)
        for _ in 0..<n {
            try source.beginObject()
            try source.field("question"); let question = try source.readString()
            try source.field("correct"); let correct = try source.readBool()
            try source.field("skill"); let skill = try source.readOptionalString()
            try source.field("seq"); let seq = try source.readInt()
            try source.field("afterHint"); let afterHint = try source.readBool()
            try source.endObject()
            answers.append(Answer(question: question, correct: correct, skill: skill, seq: seq, afterHint: afterHint))
        }
        try source.field("answerSeqByQuestion"); answerSeqByQuestion = try Self.readCounts(source)
        try source.field("hintsByQuestion"); hintsByQuestion = try Self.readCounts(source)
        try source.field("ending")
        if !source.takeNil() {
            try source.beginObject()
            try source.field("kind")
            try source.beginObject()
            let kind: Ending.Kind
            if source.peekKey("finished") != nil {
                try source.field("finished"); kind = .finished
            } else {
                try source.field("abandoned"); kind = .abandoned
            }
            try source.beginObject()
            try source.endObject()
            try source.endObject()
            try source.field("seq"); let seq = try source.readInt()
            try source.field("at"); let at = try Self.timestamp(source)
            try source.endObject()
            ending = Ending(kind: kind, seq: seq, at: at)
        }
        try source.field("score"); score = try source.readInt()
        try source.endObject()
    }

    private static func write(_ counts: [ExactString: Int], _ sink: CompactSink) {
        sink.beginArray(2 * counts.count)
        for (key, n) in counts {
            sink.write(key.value)
            sink.write(n)
        }
    }

    private static func readCounts(_ source: CompactSource) throws -> [ExactString: Int] {
        let n = try source.beginArray()
        guard n % 2 == 0 else { throw source.corrupted("an odd number of keys and counts") }
        var counts: [ExactString: Int] = [:]
        counts.reserveCapacity(n / 2)
        for _ in 0..<(n / 2) {
            let key = ExactString(try source.readString())
            counts[key] = try source.readInt()
        }
        return counts
    }

    private static func timestamp(_ source: CompactSource) throws -> Timestamp {
        let text = try source.readString()
        do { return try Timestamp(parsing: text) } catch { throw source.corrupted("timestamp \(text.debugDescription) \(error)") }
    }
}

extension QuizStarted {
    /// Writes the members as its `Codable` form does.
    func writeCompact(_ sink: CompactSink) throws {
        sink.beginObject()
        sink.field("attempt"); sink.write(attempt)
        sink.field("quiz"); sink.write(quiz)
        sink.field("questions"); sink.write(questions)
        sink.field("daily"); sink.write(daily)
        sink.field("title"); sink.write(title)
        sink.field("category"); sink.write(category)
        sink.field("difficulty"); sink.write(difficulty)
        sink.field("diagnostic"); sink.write(diagnostic)
        sink.field("extra")
        if extra.isEmpty { sink.beginArray(0) } else { try sink.writeNested(extra) }
        sink.endObject()
    }

    /// Reads what ``writeCompact(_:)`` writes.
    init(compact source: CompactSource) throws {
        try source.beginObject()
        try source.field("attempt"); let attempt = try source.readString()
        try source.field("quiz"); let quiz = try source.readString()
        try source.field("questions"); let questions = try source.readInt()
        try source.field("daily"); let daily = try source.readOptionalBool()
        try source.field("title"); let title = try source.readOptionalString()
        try source.field("category"); let category = try source.readOptionalString()
        try source.field("difficulty"); let difficulty = try source.readOptionalString()
        try source.field("diagnostic"); let diagnostic = try source.readOptionalBool()
        try source.field("extra"); let extra = source.takeEmptyArray() ? [] : try source.readNested([JSONMember].self)
        try source.endObject()
        self.init(attempt: attempt, quiz: quiz, questions: questions, daily: daily, title: title, category: category,
                  difficulty: difficulty, diagnostic: diagnostic, extra: extra)
    }
}
