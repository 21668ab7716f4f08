import Events
import Foundation
import Ledger
import Projections
import ProgressLedger
import Simulation
import Testing

/// Issue 31, item 3: a seeded property. Valid logs at the format's edges
/// (every number member at 2^53 − 1, 1,100 grants of it, lines of 1 MiB,
/// 128-character ids in many scripts, canonically equivalent and confusable
/// ids side by side, days at years 1 and 9999 with offsets ±23:59, 20,000
/// events in one learner day) go through every data command, `split` and
/// `verify DIR`, `serve`'s every route and the Swift store: nothing traps or
/// hangs (each command has a time limit), and every learner stays their own
/// (their hint total, kept by a model in `Decimal`, is theirs alone). The seed
/// is in every failure message; `EDGE_SEED=N` replays one.
@Suite("edge logs: no command, route or store traps, and equivalent ids stay apart", .serialized)
struct EdgeLogPropertyTests {
    static let bound = 9_007_199_254_740_991   // 2^53 - 1

    /// Ids side by side that Swift's `String ==` calls equal (canonical
    /// equivalence) or that look alike (confusables), and 128-scalar ids in
    /// many scripts.
    static let users: [String] = {
        var ids = [
            "caf\u{E9}", "cafe\u{301}",                 // é: one scalar, e + combining acute
            "\u{C5}ngstr\u{F6}m", "\u{212B}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m",   // Å, the Angstrom sign, A + ring
            "\u{3A9}hm", "\u{2126}hm",                   // Greek capital omega, the Ohm sign
            "\u{AC00}", "\u{1100}\u{1161}",              // Hangul syllable, its two jamo
            "admin", "\u{430}dmin", "adm\u{131}n",       // Latin, Cyrillic а, dotless ı
        ]
        let scripts = ["e\u{301}", "\u{3B1}", "\u{436}", "\u{639}", "\u{5D0}", "\u{915}\u{94D}", "\u{6F22}", "\u{D55C}", "\u{1F600}", "\u{10348}"]
        for s in scripts {
            var id = ""
            while id.unicodeScalars.count + s.unicodeScalars.count <= 128 { id += s }
            while id.unicodeScalars.count < 128 { id += "x" }
            ids.append(id)
        }
        return ids
    }()

    /// A generated log: its lines (as `append` takes them) and each learner's
    /// hint grants in total, by the learner's scalars.
    struct EdgeLog {
        var lines: [String] = []
        var granted: [[UInt32]: Decimal] = [:]
        var used: [[UInt32]: Int] = [:]
        /// The balance in log order, by the spec's rule: a grant adds its
        /// amount, a use takes 1 unless the balance is already 0 (an overdraw).
        var balance: [[UInt32]: Decimal] = [:]
    }

    static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// A JSON string, written by the test itself (not the library's encoder):
    /// a quote or backslash gets a backslash before it; nothing else in these
    /// ids needs escaping.
    static func json(_ s: String) -> String {
        let body = s.unicodeScalars.map { u in u == "\"" || u == "\\" ? "\\" + String(u) : String(u) }
        return "\"" + body.joined() + "\""
    }

    static func generate(seed: UInt64) -> EdgeLog {
        var rng = SplitMix64(seed: seed)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func number() -> Int { [1, 2, bound, bound, Int(rng.next() % UInt64(bound)) + 1][pick(5)] }
        func offset() -> String { ["+23:59", "-23:59", "Z", "+05:30", "-00:01"][pick(5)] }
        var log = EdgeLog()
        var n = 0
        func add(_ user: String, _ at: String, _ type: String, _ data: String) {
            n += 1
            log.lines.append(#"{"id":"e-\#(n)","at":"\#(at)","user":\#(json(user)),"type":"\#(type)","data":\#(data)}"#)
        }
        for (k, user) in users.enumerated() {
            let key = scalars(user)
            // Each learner's own grants: learner k gets k + 1 of them (learner 0: 1,100 of 2^53 - 1).
            let grants = k == 0 ? 1_100 : k + 1
            for _ in 0..<grants {
                let amount = k == 0 ? bound : number()
                add(user, "2025-10-20T23:59:59\(offset())", "hints.granted", #"{"amount":\#(amount),"reason":"grant"}"#)
                log.granted[key, default: 0] += Decimal(amount)
                log.balance[key, default: 0] += Decimal(amount)
            }
            add(user, "2025-10-20T12:00:00+23:59", "streak.freeze_granted", #"{"amount":\#(bound),"reason":"grant"}"#)
            add(user, "2025-10-20T12:00:00+23:59", "streak.freeze_granted", #"{"amount":\#(number()),"reason":"reward"}"#)
            // Attempts on edge days; ids and questions in the learners' scripts.
            let days = ["0001-01-01T00:00:00+23:59", "0001-01-01T23:59:59-23:59", "2025-10-21T00:00:00+23:59",
                        "2025-10-21T23:59:59-23:59", "9999-12-31T23:59:59-23:59", "9999-12-31T00:00:00+23:59"]
            for a in 0..<(2 + pick(4)) {
                let at = days[pick(days.count)]
                let attempt = "\(user)/\(a)"
                let quiz = users[pick(users.count)]
                add(user, at, "quiz.started", #"{"attempt":\#(json(attempt)),"quiz":\#(json(quiz)),"questions":\#(number()),"daily":\#(pick(2) == 0),"category":\#(json(users[pick(users.count)]))}"#)
                for q in 0..<(1 + pick(4)) {
                    let question = q % 2 == 0 ? users[pick(users.count)] : "\(q)"
                    add(user, at, "answer.selected", #"{"attempt":\#(json(attempt)),"question":\#(json(question)),"choice":\#(number()),"correct":\#(pick(2) == 0),"correct_choice":\#(number()),"skill":\#(json(users[pick(users.count)])),"ms":\#(number()),"item":\#(json(quiz))}"#)
                    if pick(3) == 0 {
                        add(user, at, "hint.used", #"{"attempt":\#(json(attempt)),"question":\#(json(question)),"hint":"reveal"}"#)
                        log.used[key, default: 0] += 1
                        if log.balance[key, default: 0] > 0 { log.balance[key, default: 0] -= 1 }
                    }
                }
                if pick(4) > 0 { add(user, at, pick(3) == 0 ? "quiz.abandoned" : "quiz.finished", #"{"attempt":\#(json(attempt))}"#) }
            }
            add(user, days[pick(days.count)], "puzzle.completed", #"{"puzzle":\#(json(users[pick(users.count)])),"encoding":\#(json(user)),"seconds":\#(number())}"#)
            add(user, days[pick(days.count)], "puzzle.failed", #"{"puzzle":\#(json(user)),"encoding":"caesar","seconds":9007199254740991.0}"#)
            let answers = (0..<pick(3)).map { i in
                #"{"question":\#(json(i == 0 ? user : "\(i)\(user)")),"choice":\#(number()),"correct":true,"skill":\#(json(users[pick(users.count)]))}"#
            }
            add(user, days[pick(days.count)], "submission.made", #"{"content":\#(json(users[pick(users.count)])),"kind":"lesson","category":\#(json(user)),"seconds":\#(number()),"answers":[\#(answers.joined(separator: ","))]}"#)
            add(user, "2025-10-22T00:00:00-23:59", "streak.paused", #"{"from":"2025-10-23","to":"2026-01-20"}"#)
            if pick(5) == 0 { add(user, "2025-10-22T10:00:00Z", "progress.reset", #"{"scope":"quizzes"}"#) }
        }
        // A line of almost 1 MiB: a member the format does not define, kept as written.
        let note = String(repeating: "\u{E9}x", count: 340_000)
        add(users[1], "2025-10-21T10:00:00+01:00", "hints.granted", #"{"amount":\#(bound),"reason":"seed","note":"\#(note)"}"#)
        log.granted[scalars(users[1]), default: 0] += Decimal(bound)
        log.balance[scalars(users[1]), default: 0] += Decimal(bound)
        return log
    }

    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["EDGE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
    }

    /// Runs a command with a time limit: a trap shows as a signal's status
    /// (128 + n, or 132 for SIGILL), a hang as `timeout`'s 124.
    static func run(_ args: [String], limit: Int = 60) throws -> CLIResult {
        try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"), ["\(limit)", CLI.tool.path] + args)
    }

    static func expectedHints(_ log: EdgeLog, _ key: [UInt32]) -> (granted: Int, balance: Int) {
        let max = Decimal(Int.max)
        let granted = log.granted[key] ?? 0
        // A learner's grants may total 2 and be followed by 3 uses: the
        // third is an overdraw and leaves the balance at 0 (projections.md, hints).
        let balance = log.balance[key] ?? 0
        func held(_ d: Decimal) -> Int { d >= max ? Int.max : NSDecimalNumber(decimal: d).intValue }
        return (held(granted), held(balance))
    }

    @Test("every data command, split and verify DIR, serve's routes and the store over a generated edge log")
    func edgeLog() async throws {
        let seed = Self.seed
        let log = Self.generate(seed: seed)
        let dir = try TemporaryDirectory()
        let path = dir.path("edge.log")
        let input = log.lines.joined(separator: "\n") + "\n"
        let append = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"), ["120", CLI.tool.path, "append", path, "--no-sync"], stdin: Array(input.utf8))
        try #require(append.status == 0, "seed \(seed): append: \(append.stderr.prefix(2_000))")
        let ledger = dir.path("ledger.d")
        let split = try Self.run(["split", path, ledger, "--quiet"])
        #expect(split.status == 0, "seed \(seed): split: \(split.stderr.prefix(2_000))")
        let learnerLogs = FileManager.default.enumerator(atPath: ledger + "/learners")?.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".log") }
        #expect(learnerLogs?.count == Self.users.count, "seed \(seed): one learner log per spelling")

        // Every data command over the log and the directory (sizes kept so the
        // whole runs in seconds: one learner's commands per source, by the seed).
        var commands: [[String]] = [["verify", path], ["verify", ledger], ["export", path]]
        let window = ["--from", "2025-10-01", "--to", "2025-11-30"]
        for format in ["json", "csv", "html", "text"] {
            commands.append(["report", format == "json" ? ledger : path, "--format", format] + window)
            commands.append(["items", format == "json" ? ledger : path, "--format", format])
        }
        let boards = [("week", "2025-10-21", "finished"), ("month", "0001-01-01", "percent"), ("month", "9999-12-31", "streak")]
        for (k, (period, on, by)) in boards.enumerated() {
            commands.append(["leaderboard", k == 1 ? ledger : path, "--period", period, "--on", on, "--by", by, "--json"])
        }
        for (k, source) in [path, ledger].enumerated() {
            let user = Self.users[Int((seed + UInt64(k)) % UInt64(Self.users.count))]
            commands.append(["export", source, "--format", ["xapi", "revlog"][k]])
            commands.append(["export", source, "--format", "flat", "--out", dir.path("flat-\(k)")])
            commands.append(["state", source, "--user", user, "--day", ["9999-12-31", "0001-01-01"][k]])
            commands.append(["review", source, "--user", user, "--json"])
            commands.append(["audit", source, "--user", user])
            commands.append(["export", source, "--user", user, "--state"])
            commands.append(["explain", source, "--user", user, ["hints.balance", "streak.current"][k], "--day", "2025-10-21"])
            commands.append(["explain", source, "--user", user, ["stats.accuracy", "study_plan.weaknesses"][k], "--day", "9999-12-31"])
        }
        for args in commands {
            let result = try Self.run(args)
            #expect(result.status == 0, "seed \(seed): \(args.map { $0.prefix(40) }.joined(separator: " ")): status \(result.status): \(result.stderr.prefix(1_500))")
        }

        // Every learner in the log (the directory's are checked by the server's
        // state route below): their own hints, their own user.
        for user in Self.users {
            let want = Self.expectedHints(log, Self.scalars(user))
            for source in [path] {
                let state = try Self.run(["state", source, "--user", user, "--day", "2025-10-21", "--json"])
                #expect(state.status == 0, "seed \(seed): state \(Self.scalars(user)): \(state.stderr.prefix(1_000))")
                let object = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any]
                #expect(Self.scalars(object?["user"] as? String ?? "") == Self.scalars(user), "seed \(seed)")
                let hints = object?["hints"] as? [String: Any]
                #expect(hints?["granted"] as? Int == want.granted, "seed \(seed): \(Self.scalars(user)) in \(source): \(String(describing: hints))")
                #expect(hints?["balance"] as? Int == want.balance, "seed \(seed): \(Self.scalars(user)) in \(source)")
            }
        }

        try await serve(ledger, log: log, seed: seed)
        try await store(log, seed: seed, in: dir)
    }

    /// `percent-encoded` path segment of a user.
    static func segment(_ user: String) -> String {
        user.utf8.map { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) ? String(UnicodeScalar(b)) : String(format: "%%%02X", b)
        }.joined()
    }

    /// Every route of every learner (with their own token), the admin routes,
    /// and a push of each learner's event to every other spelling's path: the
    /// server answers each, never 5xx, and stays up.
    func serve(_ ledger: String, log: EdgeLog, seed: UInt64) async throws {
        let server = try ServerProcess(directory: ledger)
        defer { server.terminate() }
        let tokens = try Tokens.mint(server.secretFile, Self.users.map { ($0, "learner", 3600) })
        for (k, user) in Self.users.enumerated() {
            let base = "/v1/learners/\(Self.segment(user))"
            for route in ["/events?after=0", "/events?after=1&limit=3", "/head", "/state", "/state?day=9999-12-31", "/state?day=0001-01-01", "/checkpoint"] {
                let answer = try RawHTTP(port: server.port).request("GET", base + route, token: tokens[k])
                #expect(answer.status < 500 && answer.status != 403, "seed \(seed): \(Self.scalars(user)) \(route): \(answer.status) \(answer.text.prefix(300))")
                if route == "/state" {
                    let want = Self.expectedHints(log, Self.scalars(user))
                    #expect(answer.text.contains(#""granted":\#(want.granted)"#), "seed \(seed): \(Self.scalars(user)): \(answer.text.prefix(300))")
                }
            }
            // Another spelling's token, on this learner's path: refused.
            let other = (k + 1) % Self.users.count
            let refused = try RawHTTP(port: server.port).request("GET", base + "/events?after=0", token: tokens[other])
            #expect(refused.status == 403, "seed \(seed): token of \(Self.scalars(Self.users[other])) on \(Self.scalars(user))")
        }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        for route in ["/v1/digest", "/v1/report?from=2025-10-01&to=2025-11-30", "/v1/report?from=0001-01-01&to=0001-12-31",
                      "/v1/report?from=9999-01-01&to=9999-12-31"] {
            let answer = try RawHTTP(port: server.port).request("GET", route, token: admin)
            // Years 1 and 9999 are outside the days the report route covers (docs/sync.md): a 400 naming them.
            let ok = route.contains("2025") || route == "/v1/digest" ? answer.status == 200 : answer.status == 400 && answer.kind != nil
            #expect(ok, "seed \(seed): \(route): \(answer.status) \(answer.text.prefix(300))")
        }
        #expect(try RawHTTP(port: server.port).request("GET", "/healthz").status == 200, "seed \(seed): the server stays up")
    }

    /// The Swift store over the same events: each spelling tracked is its own learner.
    func store(_ log: EdgeLog, seed: UInt64, in dir: TemporaryDirectory) async throws {
        let events = try log.lines.map { try LineCodec.decodeNewEvent(Array($0.utf8)) }
        let store = try LedgerStore(path: dir.path("store.log"))
        for user in Self.users.prefix(4) { try await store.track(StateOptions(user: user)) }
        for start in stride(from: 0, to: events.count, by: 500) {
            _ = try await store.append(Array(events[start..<min(start + 500, events.count)]))
        }
        for user in Self.users.prefix(4) {
            let state = try await store.state(of: user, day: Day("2025-10-21"))
            let want = Self.expectedHints(log, Self.scalars(user))
            #expect(Self.scalars(state.user) == Self.scalars(user), "seed \(seed)")
            #expect(state.hints.granted == want.granted && state.hints.balance == want.balance,
                    "seed \(seed): store, \(Self.scalars(user)): \(state.hints)")
        }
        await store.close()
    }

    /// Many events in one learner day, in attempts of ten answers each. (Issue
    /// 31 asks for 100,000; a debug build appends them in about a minute on a
    /// shared machine, so the test keeps 20,000. One attempt of 100,000 answers
    /// is `oneAttempt`, folded in memory.)
    @Test("20,000 events in one learner day, every number at 2^53 - 1: the commands answer")
    func oneDay() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("day.log")
        var lines: [String] = []
        for k in 0..<20_000 {
            let attempt = k / 11
            if k % 11 == 0 {
                lines.append(#"{"id":"d-\#(k)","at":"2025-10-21T00:00:00+23:59","user":"cafe\#u{301}","type":"quiz.started","data":{"attempt":"a-\#(attempt)","quiz":"q","questions":9007199254740991,"daily":true}}"#)
            } else {
                lines.append(#"{"id":"d-\#(k)","at":"2025-10-21T23:59:59-23:59","user":"cafe\#u{301}","type":"answer.selected","data":{"attempt":"a-\#(attempt)","question":"\#(k % 11)","choice":9007199254740991,"correct":true,"ms":9007199254740991}}"#)
            }
        }
        let append = try CLI.runTool(URL(fileURLWithPath: "/usr/bin/timeout"), ["120", CLI.tool.path, "append", path, "--no-sync"],
                                     stdin: Array((lines.joined(separator: "\n") + "\n").utf8))
        try #require(append.status == 0, "\(append.stderr.prefix(1_000))")
        for args in [["verify", path], ["state", path, "--user", "cafe\u{301}", "--json"], ["state", path, "--user", "caf\u{E9}", "--json"],
                     ["report", path, "--format", "json"], ["items", path, "--json"],
                     ["leaderboard", path, "--period", "week", "--on", "2025-10-21", "--by", "percent"],
                     ["review", path, "--user", "cafe\u{301}"]] {
            let result = try Self.run(args, limit: 120)
            #expect(result.status == 0, "\(args[0]): status \(result.status): \(result.stderr.prefix(1_000))")
            if args[0] == "state" {
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                let daily = object?["daily_quiz"] as? [String: Any]
                // The other spelling has no event at all.
                #expect(daily?["attempts"] as? Int == (args[3].unicodeScalars.count == 5 ? 1_819 : 0), "\(args[3].unicodeScalars.map(\.value))")
            }
        }
    }

    /// One attempt of 100,000 answers folds in time linear in its answers: the
    /// attempts book names an attempt by its place and changes it in place, so
    /// no answer copies the ones before it (each did: a fold quadratic in the
    /// answers). Folded through the public
    /// `LearnerProjector` (the fold `state` runs; a debug build appends 100,000
    /// lines too slowly for this run), and the attempt's whole summary in
    /// `state --json` is checked against numbers worked by hand: 75,000 of
    /// 100,000 right (every fourth wrong), 9 second answers to q0 ignored, one
    /// hint, finished 16 h 30 min after the start, the next day.
    @Test("one attempt of 100,000 answers: the fold is linear, the state's attempt summary worked by hand")
    func oneAttempt() throws {
        let n = 100_000
        let user = "marathon"
        var projector = LearnerProjector(options: StateOptions(user: user))
        var seq = 0
        func add(_ at: Timestamp, _ event: Event) {
            seq += 1
            projector.apply(Envelope(seq: seq, id: "e-\(seq)", at: at, user: user, event: event, prev: ""))
        }
        let start = try Timestamp(parsing: "2025-10-21T08:00:00+02:00")
        let during = try Timestamp(parsing: "2025-10-21T20:00:00+02:00")
        let end = try Timestamp(parsing: "2025-10-22T00:30:00+02:00")
        add(start, .hintsGranted(HintsGranted(amount: 5, reason: .seed)))                                      // seq 1
        add(start, .quizStarted(QuizStarted(attempt: "a-1", quiz: "quiz-1", questions: n, daily: true)))       // seq 2
        var duplicates: [Int] = []
        for k in 0..<n {
            if k == n - 1 { add(during, .hintUsed(HintUsed(attempt: "a-1", question: "q\(k)", hint: .reveal))) }
            add(during, .answerSelected(AnswerSelected(attempt: "a-1", question: "q\(k)", choice: k % 4, correct: k % 4 != 3, ms: 1_000)))
            if k > 0 && k % 10_000 == 0 {
                add(during, .answerSelected(AnswerSelected(attempt: "a-1", question: "q0", choice: 3, correct: false, ms: 1_000)))
                duplicates.append(seq)
            }
        }
        add(end, .quizFinished(AttemptEnded(attempt: "a-1")))
        #expect(seq == 2 + n + 9 + 1 + 1)

        let state = try #require(try JSONSerialization.jsonObject(with: Data(projector.state().jsonBytes)) as? [String: Any])
        // Both sides parsed and written again with sorted keys: the same JSON value, the same bytes.
        func canonical(_ value: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys]), as: UTF8.self)
        }
        func expect(_ member: String, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let expected = try canonical(JSONSerialization.jsonObject(with: Data(json.utf8)))
            let actual = try canonical(#require(state[member], sourceLocation: sourceLocation))
            #expect(actual == expected, "\(member)", sourceLocation: sourceLocation)
        }
        // D is the attempt's day (its finish, at 00:30 the next day, is on it).
        #expect(state["day"] as? String == "2025-10-21")
        try expect("daily_quiz", #"""
            {"day": "2025-10-21", "status": "completed", "quiz": "quiz-1", "attempt": "a-1", "answered": 100000,
             "next_question": 100000, "score": 75000, "total": 100000, "completed": true, "best_score": 75000,
             "completed_at": "2025-10-22T00:30:00+02:00", "attempts": 1, "retries_used": 0, "retries_left": 1}
            """#)
        try expect("history", #"""
            [{"day": "2025-10-21", "quiz": "quiz-1", "best_score": 75000, "total": 100000, "percent": 75,
              "completed_at": "2025-10-22T00:30:00+02:00"}]
            """#)
        try expect("quizzes", #"""
            [{"quiz": "quiz-1", "attempts": 1, "finished": 1, "abandoned": 0, "retries": 0, "best_score": 75000,
              "best_percent": 75, "latest_percent": 75, "fastest_seconds": 59400}]
            """#)
        try expect("stats", #"""
            {"quizzes_completed": 1, "questions_answered": 100000, "correct": 75000, "accuracy": 75,
             "puzzles_completed": 0, "submissions": 0, "first_active": "2025-10-21", "last_active": "2025-10-21",
             "active_days": 1, "time_spent_seconds": 100000}
            """#)
        try expect("hints", #"{"balance": 4, "granted": 5, "used": 1, "used_by_kind": {"fifty_fifty": 0, "reveal": 1}}"#)
        let anomalies = try #require(state["anomalies"] as? [[String: Any]])
        #expect(anomalies.map { $0["kind"] as? String } == Array(repeating: "duplicate_answer", count: 9))
        #expect(anomalies.map { $0["seq"] as? Int } == duplicates)
        #expect(anomalies.allSatisfy { ($0["detail"] as? String)?.hasSuffix("the first answer (seq 3) counts") == true })
    }
}
