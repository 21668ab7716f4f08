import Events
import Foundation
import Ledger
import Projections
import Testing

/// `progress-ledger state` on real log files in temporary directories.
@Suite("state command")
struct StateCommandTests {
    /// Writes events for one learner through the Ledger writer (real appends, real chain).
    struct LearnerLog {
        let dir: TemporaryDirectory
        let path: String
        private var pending: [NewEvent] = []
        var user = "u-42"

        init(_ name: String = "learner.log") throws {
            dir = try TemporaryDirectory()
            path = dir.path(name)
        }

        mutating func add(_ at: String, _ event: Event, user: String? = nil) throws {
            pending.append(NewEvent(at: try Timestamp(parsing: at), user: user ?? self.user, event: event))
        }
        mutating func start(_ at: String, _ attempt: String, quiz: String = "daily", questions: Int = 5) throws {
            try add(at, .quizStarted(QuizStarted(attempt: attempt, quiz: quiz, questions: questions, daily: true)))
        }
        mutating func answer(_ at: String, _ attempt: String, _ q: String, correct: Bool = true) throws {
            try add(at, .answerSelected(AnswerSelected(attempt: attempt, question: q, choice: 0, correct: correct,
                                                       skill: "inference")))
        }
        mutating func finish(_ at: String, _ attempt: String) throws {
            try add(at, .quizFinished(AttemptEnded(attempt: attempt)))
        }
        /// A daily quiz started, answered (`correct` right of 5) and finished at 09:00–09:10 in `offset`.
        mutating func dailyDone(_ day: String, _ attempt: String, correct: Int = 5, offset: String = "Z") throws {
            try start("\(day)T09:00:00\(offset)", attempt, quiz: "daily-\(day)")
            for q in 1...5 { try answer("\(day)T09:0\(q):00\(offset)", attempt, "q\(q)", correct: q <= correct) }
            try finish("\(day)T09:10:00\(offset)", attempt)
        }

        /// Appends what was added, in one batch.
        mutating func write() throws {
            let writer = try LedgerWriter(path: path)
            _ = try writer.append(pending)
            pending = []
        }

        var records: [Record] {
            get throws {
                var all: [Record] = []
                try LogReader(path: path).read { all.append($0) }
                return all
            }
        }
    }

    func state(_ log: LearnerLog, _ extra: [String] = [], user: String = "u-42",
               environment: [String: String] = [:]) throws -> CLIResult {
        try CLI.run(["state", log.path, "--user", user] + extra, environment: environment)
    }

    func json(_ r: CLIResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(r.stdoutBytes))
        return try #require(object as? [String: Any])
    }

    func dailyQuiz(_ r: CLIResult) throws -> [String: Any] {
        try #require(try json(r)["daily_quiz"] as? [String: Any])
    }

    @Test("the JSON is the library's state byte for byte, one line, members in the spec's order")
    func sameAsLibrary() throws {
        var log = try LearnerLog()
        try log.dailyDone("2025-10-20", "a-0", correct: 4)
        try log.start("2025-10-21T09:00:00+03:00", "a-1")
        try log.answer("2025-10-21T09:01:00+03:00", "a-1", "q1")
        try log.add("2025-10-21T09:02:00+03:00", .hintsGranted(HintsGranted(amount: 2, reason: .seed)), user: "u-7")
        try log.write()
        let r = try state(log, ["--json", "--day", "2025-10-21", "--retry-limit", "2", "--days", "7", "--streak-on", "any"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let expected = LearnerState(folding: try log.records, options: StateOptions(
            user: "u-42", day: Day("2025-10-21"), retryLimit: 2, streakOn: .any, days: 7))
        #expect(r.stdoutBytes == expected.jsonBytes + [0x0A])
        let keys = try #require(String(decoding: r.stdoutBytes, as: UTF8.self).split(separator: "\"daily_quiz\"").first)
        #expect(keys == "{\"user\":\"u-42\",\"day\":\"2025-10-21\",")
    }

    @Test("seed 1: answer 1 of 5, reopen: resume at question 2 with score 1")
    func seedOne() throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T08:15:00+03:00", "a-1")
        try log.answer("2025-10-21T08:16:10+03:00", "a-1", "q1")
        try log.write()
        let quiz = try dailyQuiz(try state(log, ["--json"]))
        #expect(quiz["status"] as? String == "in_progress")
        #expect(quiz["next_question"] as? Int == 1)
        #expect(quiz["score"] as? Int == 1)
        #expect(try state(log).stdout.contains("Daily quiz: Continue (2/5)"))
    }

    @Test("seeds 2 and 4: complete all, then retry: best score kept, no retries left")
    func seedsTwoAndFour() throws {
        var log = try LearnerLog()
        try log.dailyDone("2025-10-21", "a-1", correct: 4)
        try log.write()
        var quiz = try dailyQuiz(try state(log, ["--json"]))
        #expect(quiz["status"] as? String == "completed")
        #expect(quiz["score"] as? Int == 4)
        #expect(quiz["completed_at"] as? String == "2025-10-21T09:10:00Z")
        try log.start("2025-10-21T10:00:00Z", "a-2", quiz: "daily-2025-10-21")
        try log.answer("2025-10-21T10:01:00Z", "a-2", "q1", correct: false)
        try log.finish("2025-10-21T10:02:00Z", "a-2")
        try log.write()
        quiz = try dailyQuiz(try state(log, ["--json"]))
        #expect(quiz["retries_used"] as? Int == 1)
        #expect(quiz["retries_left"] as? Int == 0)
        #expect(quiz["best_score"] as? Int == 4)
        #expect(quiz["score"] as? Int == 0)
        #expect(try state(log).stdout.contains("Daily quiz: Completed 0/5 · no retries left"))
    }

    @Test("seed 3: answer 3 of 5, reopen: Continue (4/5)")
    func seedThree() throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T08:15:00+03:00", "a-1")
        for q in 1...3 { try log.answer("2025-10-21T08:1\(q):00+03:00", "a-1", "q\(q)") }
        try log.write()
        #expect(try dailyQuiz(try state(log, ["--json"]))["next_question"] as? Int == 3)
        #expect(try state(log).stdout.contains("Daily quiz: Continue (4/5)"))
    }

    @Test("seeds 5 and 6: a 23:55 start answered after midnight counts for the start day; next day not started")
    func seedsFiveAndSix() throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T23:55:00+03:00", "a-1", quiz: "daily-21", questions: 1)
        try log.answer("2025-10-22T00:02:00+03:00", "a-1", "q1")
        try log.finish("2025-10-22T00:03:00+03:00", "a-1")
        try log.write()
        let startDay = try dailyQuiz(try state(log, ["--json", "--day", "2025-10-21"]))
        #expect(startDay["status"] as? String == "completed")
        // Without --day, D is the day the latest event counts on: the start day.
        let reopened = try json(try state(log, ["--json"]))
        #expect(reopened["day"] as? String == "2025-10-21")
        #expect((reopened["daily_quiz"] as? [String: Any])?["status"] as? String == "completed")
        let next = try json(try state(log, ["--json", "--day", "2025-10-22"]))
        #expect(next["day"] as? String == "2025-10-22")
        #expect((next["daily_quiz"] as? [String: Any])?["status"] as? String == "not_started")
        let history = try #require(next["history"] as? [[String: Any]])
        #expect(history.map { $0["day"] as? String } == ["2025-10-21"])
        #expect(history.first?["completed_at"] as? String == "2025-10-22T00:03:00+03:00")
        let streak = try #require(next["streak"] as? [String: Any])
        #expect(streak["current"] as? Int == 1)
        #expect(streak["active_today"] as? Bool == false)
    }

    @Test("the same bytes with TZ=UTC, Asia/Kolkata and America/Los_Angeles, and across runs")
    func timeZoneIndependent() throws {
        var log = try LearnerLog()
        try log.dailyDone("2025-03-01", "a-1", offset: "+09:00")
        try log.start("2025-03-01T17:00:00-08:00", "a-2", quiz: "daily-sea")      // flew west
        try log.dailyDone("2025-03-30", "a-3", offset: "+02:00")                  // DST in Europe
        try log.write()
        let runs = try ["UTC", "Asia/Kolkata", "America/Los_Angeles", "UTC"].map { zone in
            try state(log, ["--json", "--streak-on", "any"], environment: ["TZ": zone])
        }
        #expect(runs.allSatisfy { $0.status == 0 })
        #expect(Set(runs.map(\.stdoutBytes)).count == 1)
        #expect(try json(runs[0])["day"] as? String == "2025-03-30")
        let text = try ["UTC", "Asia/Kolkata"].map { try state(log, [], environment: ["TZ": $0]).stdoutBytes }
        #expect(text[0] == text[1])
    }

    @Test("a damaged log is refused with verify's message, exit 1, nothing on stdout")
    func damaged() throws {
        var log = try LearnerLog()
        try log.dailyDone("2025-10-21", "a-1")
        try log.write()
        var bytes = log.dir.bytes("learner.log")
        let secondLine = try #require(bytes.firstIndex(of: 0x0A)) + 1
        let question = Array("\"q1\"".utf8)
        let at = try #require((secondLine..<bytes.count).first { Array(bytes[$0..<($0 + 4)]) == question })
        bytes[at + 1] = UInt8(ascii: "Q")                     // an edit of line 2 breaks the link at line 3
        try Data(bytes).write(to: URL(fileURLWithPath: log.path))
        let report = try verify(path: log.path)
        let problem = try #require(report.problem)
        let r = try state(log, ["--json"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "progress-ledger state: \(log.path): \(problem)\n")
        #expect(r.stderr.contains("line 3: broken_chain: "))
        let verified = try CLI.run(["verify", log.path])
        #expect(verified.status == 1)
        #expect(r.stderr.contains(verified.stdout + verified.stderr))
    }

    @Test("a torn tail is a warning: the state of the complete lines, exit 0")
    func tornTail() throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T09:00:00Z", "a-1")
        try log.write()
        let handle = try #require(FileHandle(forWritingAtPath: log.path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"v\":1,\"seq\":2,".utf8))
        try handle.close()
        let r = try state(log, ["--json"])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("\(log.path): warning: line 2: torn_tail: "))
        #expect(r.stderr == (try CLI.run(["verify", log.path])).stderr)
        #expect(try dailyQuiz(r)["status"] as? String == "in_progress")
    }

    @Test("an unknown user: a note on stderr and the empty state, exit 0; users are case-sensitive")
    func unknownUser() throws {
        var log = try LearnerLog()
        try log.dailyDone("2025-10-21", "a-1")
        try log.write()
        let r = try state(log, ["--json"], user: "U-42")
        #expect(r.status == 0)
        #expect(r.stderr == "progress-ledger state: no events for user \"U-42\" in \(log.path); the state below is empty\n")
        #expect(r.stdoutBytes == LearnerState(user: "U-42").jsonBytes + [0x0A])
        let asOf = try state(log, ["--as-of", "0"])
        #expect(asOf.stderr.contains("no events for user \"u-42\" in \(log.path) as of 0"))
    }

    @Test("an empty log: a note on stderr and the empty state; a missing log: exit 1 naming the file")
    func emptyAndMissing() throws {
        let dir = try TemporaryDirectory()
        let empty = dir.path("empty.log")
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let r = try CLI.run(["state", empty, "--user", "u-1"])
        #expect(r.status == 0)
        #expect(r.stderr == "progress-ledger state: \(empty) holds no events; the state below is empty\n")
        #expect(r.stdout.hasPrefix("u-1 · no day (no events)\nDaily quiz: Start\n"))
        let missing = try CLI.run(["state", dir.path("nope.log"), "--user", "u-1"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.log: not_found: the log does not exist"))
    }

    @Test("usage errors exit 64 and name the option", arguments: [
        (["--day", "2025-02-30"], "--day takes a date YYYY-MM-DD that exists"),
        (["--as-of", "yesterday"], "as-of \"yesterday\": must be a seq"),
        (["--retry-limit", "-1"], "--retry-limit takes a whole number from 0"),
        (["--days", "0"], "--days takes a whole number from 1"),
        (["--streak-on", "weekly"], "--streak-on takes one of daily, any"),
        (["--user", "x", "--user", "y"], "option '--user' given more than once"),
        (["--colour"], "unknown option '--colour'"),
    ])
    func usage(arguments: [String], message: String) throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T09:00:00Z", "a-1")
        try log.write()
        let r = try CLI.run(["state", log.path] + (arguments.contains("--user") ? [] : ["--user", "u-42"]) + arguments)
        #expect(r.status == 64)
        #expect(r.stdout == "")
        #expect(r.stderr.contains(message))
        #expect(try CLI.run(["state", log.path]).stderr.contains("missing --user U"))
    }

    @Test("--catalog: recommendations from a file; an ill-typed or missing catalog is an error, exit 1")
    func catalog() throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T09:00:00Z", "a-1")
        for q in 1...4 { try log.answer("2025-10-21T09:0\(q):00Z", "a-1", "q\(q)", correct: false) }
        try log.write()
        let good = log.dir.path("catalog.json")
        try Data("{\n  \"inference\": [\"l-1\", \"l-2\"]\n}\n".utf8).write(to: URL(fileURLWithPath: good))
        let r = try state(log, ["--json", "--catalog", good])
        #expect(r.status == 0)
        let plan = try #require(try json(r)["study_plan"] as? [String: Any])
        #expect(plan["recommended"] as? [String] == ["l-1", "l-2"])
        let bad = log.dir.path("bad.json")
        try Data("{\"inference\": \"l-1\"}".utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try state(log, ["--catalog", bad])
        #expect(refused.status == 1)
        #expect(refused.stdout == "")
        #expect(refused.stderr == "progress-ledger state: \(bad): catalog: member \"inference\": must be a list of content ids (strings), not a string\n")
        let missing = try state(log, ["--catalog", log.dir.path("none.json")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("none.json: cannot read the catalog: not_found: opening the file failed: open: No such file or directory (ENOENT)"))
    }

    @Test("--as-of: a seq and a time, as the library computes them")
    func asOf() throws {
        var log = try LearnerLog()
        try log.start("2025-10-21T09:00:00Z", "a-1")
        try log.answer("2025-10-21T09:01:00Z", "a-1", "q1")
        try log.answer("2025-10-21T12:02:00+03:00", "a-1", "q2")
        try log.write()
        #expect(try dailyQuiz(try state(log, ["--json", "--as-of", "2"]))["answered"] as? Int == 1)
        #expect(try dailyQuiz(try state(log, ["--json", "--as-of", "2025-10-21T09:01:59Z"]))["answered"] as? Int == 1)
        #expect(try dailyQuiz(try state(log, ["--json", "--as-of", "2025-10-21T09:02:00Z"]))["answered"] as? Int == 2)
    }

    @Test("--help describes the command and exits 0")
    func help() throws {
        let r = try CLI.run(["state", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Usage: progress-ledger state LOG|DIR|REPLICA --user U"))
        #expect(try CLI.run(["--help"]).stdout.contains("state"))
    }

    @Test("a one-learner log (every line theirs), in a file and split into a ledger directory: state equals the fold of every line decoded whole, escapes included",
          arguments: [[], ["--day", "2025-11-20"], ["--as-of", "2025-11-01T12:00:00Z"]])
    func oneLearnerAsDecodedWhole(extra: [String]) throws {
        let dir = try TemporaryDirectory()
        let demo = try CLI.run(["demo", "--users", "1", "--days", "45", "--seed", "11", "--out", dir.path("demo")])
        #expect(demo.status == 0, "\(demo.stderr)")
        let log = dir.path("demo/demo.log")
        // Types a short demo may not write, with strings the writer escapes.
        let events = [
            #"{"id":"x-1","at":"2025-11-21T08:00:00.25+05:30","user":"u-001","device":"d \"1\"","type":"quiz.started","data":{"attempt":"a \\ \"é\"\t","quiz":"q/\u0001","questions":1,"daily":false,"title":"t \"x\"","extra":[1,{"k":"\n"}]}}"#,
            #"{"id":"x-2","at":"2025-11-21T08:01:00Z","user":"u-001","type":"answer.selected","data":{"attempt":"a \\ \"é\"\t","question":"1\"","choice":2,"correct":true,"skill":"s \"😀\""}}"#,
            #"{"id":"x-3","at":"2025-11-21T08:02:00Z","user":"u-001","type":"quiz.finished","data":{"attempt":"a \\ \"é\"\t"}}"#,
            #"{"id":"x-4","at":"2025-11-21T09:00:00Z","user":"u-001","type":"streak.paused","data":{"from":"2025-11-22","to":"2025-11-23"}}"#,
            #"{"id":"x-5","at":"2025-11-24T09:00:00Z","user":"u-001","type":"progress.reset","data":{"scope":"quizzes"}}"#,
        ]
        let append = try CLI.run(["append", log], input: events.joined(separator: "\n") + "\n")
        #expect(append.status == 0, "\(append.stderr)")
        let split = try CLI.run(["split", log, dir.path("ledger")])
        #expect(split.status == 0, "\(split.stderr)")
        // The fold of every line decoded whole, by itself.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
        var options = StateOptions(user: "u-001")
        if let k = extra.firstIndex(of: "--day") { options.day = Day(extra[k + 1]) }
        if let k = extra.firstIndex(of: "--as-of") { options.asOf = try AsOf(parsing: extra[k + 1]) }
        var projector = LearnerProjector(options: options)
        var types = Set<EventType>()
        for line in bytes.split(separator: 0x0A) {
            let record = try LineCodec.decodeRecord(line)
            #expect(record.user == "u-001")
            if case .event(let e) = record { types.insert(e.event.type) }
            projector.apply(record)
        }
        #expect(types.count >= 10, "\(types)")
        let expected = projector.state().jsonBytes + [0x0A]
        for source in [log, dir.path("ledger")] {
            let state = try CLI.run(["state", source, "--user", "u-001", "--json"] + extra)
            #expect(state.status == 0, "\(state.stderr)")
            #expect(state.stdoutBytes == expected, "\(source) \(extra)")
        }
    }
}
