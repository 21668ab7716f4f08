import Events

extension ItemAnalysis {
    /// The analysis as one compact JSON object, without a trailing newline:
    /// `{"from","to","quizzes":[{"quiz","started","finished","abandoned","dropped_after","questions"}],
    /// "submissions":[{"content","submissions","questions"}]}`.
    public var json: [UInt8] {
        var w = JSONWriter()
        w.object { w, o in
            o.day(&w, "from", from); o.day(&w, "to", to)
            o.objects(&w, "quizzes", quizzes) { w, q, quiz in
                q.string(&w, "quiz", quiz.quiz)
                q.integer(&w, "started", quiz.started); q.integer(&w, "finished", quiz.finished); q.integer(&w, "abandoned", quiz.abandoned)
                q.objects(&w, "dropped_after", quiz.droppedAfter) { w, o, d in o.integer(&w, "answered", d.answered); o.integer(&w, "attempts", d.attempts) }
                q.array(&w, "questions", quiz.questions) { w, item in item.write(to: &w, quiz: true) }
            }
            o.objects(&w, "submissions", contents) { w, c, content in
                c.string(&w, "content", content.content); c.integer(&w, "submissions", content.submissions)
                c.array(&w, "questions", content.questions) { w, item in item.write(to: &w, quiz: false) }
            }
        }
        return w.bytes
    }
}

extension ItemAnalysis.Question {
    func write(to w: inout JSONWriter, quiz: Bool) {
        w.object { w, o in
            o.string(&w, "question", question)
            o.integer(&w, "answers", answers); o.integer(&w, "correct", correct); o.integer(&w, "p_correct", pCorrect)
            o.objects(&w, "choices", choices) { w, o, c in o.integer(&w, "choice", c.choice); o.integer(&w, "count", c.count) }
            o.integer(&w, "top_wrong_choice", topWrongChoice)
            if quiz { o.number(&w, "discrimination", discrimination); o.integer(&w, "median_ms", medianMs); o.integer(&w, "hinted", hinted) }
        }
    }

    /// `0:3 1:5`: each chosen index and its count, by index.
    package var choicesText: String { choices.map { "\($0.choice):\($0.count)" }.joined(separator: " ") }
}
