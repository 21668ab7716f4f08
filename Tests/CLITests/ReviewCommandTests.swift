import Foundation
import Testing

/// `progress-ledger review`, `state`'s review options and `export --format revlog`
/// (docs/projections.md, "review"), on small logs worked by hand.
@Suite("review command and revlog export")
struct ReviewCommandTests {
    /// Two learners. u-1: on 10-01 geo q1 right, q2 wrong, q3 right after a hint;
    /// a lesson's two answers on 10-02 (right, wrong); on 10-04 geo q2 wrong again
    /// (a lapse: an Again after the item's first review) and q1 right. u-2: one answer.
    static let events = [
        #"{"id":"e1","at":"2025-10-01T08:00:00+02:00","user":"u-1","type":"quiz.started","data":{"attempt":"a1","quiz":"geo","questions":3}}"#,
        #"{"id":"e2","at":"2025-10-01T08:00:10+02:00","user":"u-1","type":"answer.selected","data":{"attempt":"a1","question":"q1","choice":1,"correct":true,"skill":"capitals","ms":4200}}"#,
        #"{"id":"e3","at":"2025-10-01T08:00:20+02:00","user":"u-1","type":"answer.selected","data":{"attempt":"a1","question":"q2","choice":0,"correct":false}}"#,
        #"{"id":"e4","at":"2025-10-01T08:00:25+02:00","user":"u-1","type":"hint.used","data":{"attempt":"a1","question":"q3","hint":"reveal"}}"#,
        #"{"id":"e5","at":"2025-10-01T08:00:30.5+02:00","user":"u-1","type":"answer.selected","data":{"attempt":"a1","question":"q3","choice":2,"correct":true,"ms":900}}"#,
        #"{"id":"e6","at":"2025-10-01T08:01:00+02:00","user":"u-1","type":"quiz.finished","data":{"attempt":"a1"}}"#,
        #"{"id":"e7","at":"2025-10-02T19:00:00+02:00","user":"u-1","type":"submission.made","data":{"content":"l1","kind":"lesson","category":"reading","answers":[{"question":"1","choice":0,"correct":true},{"question":"2","choice":1,"correct":false}]}}"#,
        #"{"id":"e8","at":"2025-10-03T09:00:00Z","user":"u-2","type":"quiz.started","data":{"attempt":"b1","quiz":"geo","questions":1}}"#,
        #"{"id":"e9","at":"2025-10-03T09:00:05Z","user":"u-2","type":"answer.selected","data":{"attempt":"b1","question":"q1","choice":1,"correct":true}}"#,
        #"{"id":"e10","at":"2025-10-04T08:00:00+02:00","user":"u-1","type":"quiz.started","data":{"attempt":"a2","quiz":"geo","questions":2}}"#,
        #"{"id":"e11","at":"2025-10-04T08:00:10+02:00","user":"u-1","type":"answer.selected","data":{"attempt":"a2","question":"q2","choice":0,"correct":false}}"#,
        #"{"id":"e12","at":"2025-10-04T08:00:20+02:00","user":"u-1","type":"answer.selected","data":{"attempt":"a2","question":"q1","choice":1,"correct":true,"skill":"capitals"}}"#,
    ]

    private func makeLog(_ dir: TemporaryDirectory, _ lines: [String] = events) throws -> String {
        let log = dir.path("learners.log")
        let run = try CLI.run(["append", log], input: lines.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        return log
    }

    /// u-1 on 10-04, by hand (FSRS-6 defaults, retention 0.9; see ReviewTests for the formulas):
    /// - geo q3: Hard on 10-01 → S 1.2931, 1 day: due 10-02 08:00:30.5 (+02:00).
    /// - l1 "2": Again on 10-02 → S 0.212, 1 day: due 10-03 19:00.
    /// - geo q2: Again 10-01 08:00:20, Again 10-04 08:00:10 (2 whole days later): R = (1 + f·2/0.212)^d,
    ///   forget stability 0.11…, 1 day: due 10-05.
    /// - geo q1: Good 10-01 08:00:10, Good 10-04 08:00:20 (3 days): recall stability 13.8269…, 14 days: 10-18.
    /// - l1 "1": Good on 10-02 → 2 days: due 10-04 19:00.
    @Test("review --json: the items due on D within the budget, least likely recalled first, and the 7 days after D")
    func json() throws {
        let dir = try TemporaryDirectory()
        let log = try makeLog(dir)
        let run = try CLI.run(["review", log, "--user", "u-1", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdoutBytes)) as? [String: Any])
        #expect(object["user"] as? String == "u-1")
        #expect(object["day"] as? String == "2025-10-04")
        let due = try #require(object["due"] as? [[String: Any]])
        // Retrievability on 10-04: l1 2 (S 0.212, 2 days) < geo q3 (S 1.2931, 3 days) < l1 1 (S 2.3065, 2 days).
        #expect(due.map { "\($0["source"]!) \($0["question"]!)" } == ["l1 2", "geo q3", "l1 1"])
        #expect(due.map { $0["due"] as? String } == ["2025-10-03T19:00:00+02:00", "2025-10-02T08:00:30.5+02:00",
                                                      "2025-10-04T19:00:00+02:00"])
        #expect(due.map { $0["kind"] as? String } == ["submission", "quiz", "submission"])
        #expect(due.map { $0["stability"] as? Double } == [0.212, 1.2931, 2.3065])
        #expect(due.map { $0["due_day"] as? String } == ["2025-10-03", "2025-10-02", "2025-10-04"])
        // geo q1 and q2, answered on 10-04 and before it, are 2 of the day's 20.
        #expect(object["budget"] as? Int == 20 && object["done"] as? Int == 2 && object["more"] as? Int == 0)
        let upcoming = try #require(object["upcoming"] as? [[String: Any]])
        #expect(upcoming.map { $0["day"] as? String } == (5...11).map { "2025-10-\(String(format: "%02d", $0))" })
        #expect(upcoming.map { $0["count"] as? Int } == [1, 0, 0, 0, 0, 0, 0])      // geo q2 on 10-05; q1 on 10-18
        // The members are state's review items, byte for byte.
        let state = try CLI.run(["state", log, "--user", "u-1", "--json"])
        let itemLines = run.stdout.components(separatedBy: #"{"item":null,"kind":"#).dropFirst().map { $0.prefix { $0 != "}" } }
        #expect(itemLines.count == 3)
        for item in itemLines { #expect(state.stdout.contains(item)) }
        #expect(state.stdout.contains(#""review":{"retention":0.9,"due":3,"budget":20,"done":2,"today":[{"item":null,"kind":"submission","source":"l1","question":"2""#))
        #expect(state.stdout.contains(#""more":0,"items":[{"item":null,"kind":"quiz","source":"geo","question":"q3""#))
        #expect(state.stdout.contains(#""question":"q1","skill":"capitals","stability":13.826903694354"#))
        #expect(state.stdout.contains(#""reviews":2,"lapses":0,"last_review":"2025-10-04T08:00:20+02:00","due":"2025-10-18T08:00:20+02:00","due_day":"2025-10-18"}"#))
        #expect(state.stdout.contains(#""question":"q2","skill":null,"stability":"#))
        #expect(state.stdout.contains(#""reviews":2,"lapses":1,"last_review":"2025-10-04T08:00:10+02:00","due":"2025-10-05T08:00:10+02:00""#))
    }

    @Test("--limit keeps the first of the day's list; text for a person; --day moves D, not the reviews")
    func limitTextDay() throws {
        let dir = try TemporaryDirectory()
        let log = try makeLog(dir)
        let limited = try CLI.run(["review", log, "--user", "u-1", "--limit", "1", "--json"])
        #expect(limited.stdout.hasPrefix(#"{"user":"u-1","day":"2025-10-04","budget":20,"done":2,"due":[{"item":null,"kind":"submission","source":"l1","question":"2","#))
        #expect(limited.stdout.components(separatedBy: #""kind":"#).count == 2)
        let text = try CLI.run(["review", log, "--user", "u-1", "--limit", "2"])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("u-1 · 2025-10-04 · 3 items due · 2 of 20 done today, 2 to review below (lowest recall first), "
            + "1 more due · 5 items scheduled for 0.9 retention\n"
            + "  submission l1 2 · due 2025-10-03, 1 day overdue · 1 review, 0 lapses · stability 0.21 d, difficulty 6.41\n"
            + "  quiz geo q3 · due 2025-10-02, 2 days overdue · 1 review, 0 lapses · stability 1.29 d, difficulty 5.11\n"
            + "Coming up: 2025-10-05 1 · 2025-10-06 0"), "\(text.stdout)")
        let later = try CLI.run(["review", log, "--user", "u-1", "--day", "2025-10-20", "--json"])
        #expect(later.stdout.components(separatedBy: #""kind":"#).count == 6)      // all five due
        let nobody = try CLI.run(["review", log, "--user", "u-9", "--json"])
        #expect(nobody.status == 0)
        #expect(nobody.stdout == #"{"user":"u-9","day":null,"budget":20,"done":0,"due":[],"more":0,"upcoming":[]}"# + "\n")
        #expect(nobody.stderr.contains(#"no events for user "u-9""#))
    }

    @Test("--retention and --fsrs-params: checked, and used by state and review alike")
    func schedulerOptions() throws {
        let dir = try TemporaryDirectory()
        let log = try makeLog(dir)
        let state = try CLI.run(["state", log, "--user", "u-2", "--json", "--retention", "0.85"])
        // A new Good at 0.85: 4 days.
        #expect(state.stdout.contains(#""review":{"retention":0.85,"due":0,"budget":20,"done":0,"today":[],"more":0,"items":[{"item":null,"kind":"quiz","source":"geo","question":"q1","skill":null,"stability":2.3065,"#))
        #expect(state.stdout.contains(#""due":"2025-10-07T09:00:05Z","due_day":"2025-10-07"}]}"#))
        // explain takes the same options and explains the same value.
        let explained = try CLI.run(["explain", log, "--user", "u-2", "review.retention", "--retention", "0.85"])
        #expect(explained.status == 0 && explained.stdout.hasPrefix("review.retention = 0.85\n"), "\(explained.stdout)\(explained.stderr)")
        for bad in ["1", "0", "x", "1.5"] {
            let run = try CLI.run(["review", log, "--user", "u-2", "--retention", bad])
            #expect(run.status == 64)
            #expect(run.stderr.contains("--retention takes a number greater than 0 and less than 1 (got '\(bad)')"))
        }
        var w = [0.212, 1.2931, 7.0, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
                 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542]
        let params = dir.path("params.json")
        try Data("\(w)".utf8).write(to: URL(fileURLWithPath: params))
        let fitted = try CLI.run(["review", log, "--user", "u-2", "--fsrs-params", params, "--day", "2025-10-10", "--json"])
        #expect(fitted.stdout.contains(#""stability":7.0,"#) && fitted.stdout.contains(#""due":"2025-10-10T09:00:05Z""#), "\(fitted.stdout)")
        w[12] = 0.5
        try Data("\(w)".utf8).write(to: URL(fileURLWithPath: params))
        let outOfBounds = try CLI.run(["state", log, "--user", "u-2", "--fsrs-params", params])
        #expect(outOfBounds.status == 1)
        #expect(outOfBounds.stderr == "progress-ledger state: \(params): FSRS parameters: parameters[12] = 0.5 is out of bounds (0.001 to 0.25)\n")
        try Data("[1, 2,".utf8).write(to: URL(fileURLWithPath: params))
        let notJSON = try CLI.run(["review", log, "--user", "u-2", "--fsrs-params", params])
        #expect(notJSON.status == 1 && notJSON.stderr.contains("\(params): FSRS parameters: not valid JSON"), "\(notJSON.stderr)")
        let missing = try CLI.run(["review", log, "--user", "u-2", "--fsrs-params", dir.path("nope.json")])
        #expect(missing.status == 1 && missing.stderr.contains("nope.json"))
    }

    @Test("a ledger directory gives the same review and revlog as its log")
    func directory() throws {
        let dir = try TemporaryDirectory()
        let log = try makeLog(dir)
        let split = try CLI.run(["split", log, dir.path("ledger.d")])
        #expect(split.status == 0, "\(split.stderr)")
        for user in ["u-1", "u-2"] {
            let fromLog = try CLI.run(["review", log, "--user", user, "--json"])
            let fromDir = try CLI.run(["review", dir.path("ledger.d"), "--user", user, "--json"])
            #expect(fromLog.stdout == fromDir.stdout)
        }
        let fromLog = try CLI.run(["export", log, "--format", "revlog"])
        let fromDir = try CLI.run(["export", dir.path("ledger.d"), "--format", "revlog"])
        #expect(fromLog.status == 0 && fromDir.stdout == fromLog.stdout)
    }

    @Test("export --format revlog: a row per review, cards in order, ids from the documented hash")
    func revlog() throws {
        let dir = try TemporaryDirectory()
        let log = try makeLog(dir, Self.events + [
            #"{"id":"e13","at":"2025-10-05T08:00:00+02:00","user":"u-1","type":"progress.reset","data":{"scope":"submissions"}}"#,
            #"{"id":"e14","at":"2025-10-05T09:00:00.999999999+02:00","user":"u-1","type":"submission.made","data":{"content":"l1","kind":"lesson","category":"reading","answers":[{"question":"1","choice":0,"correct":true}]}}"#,
        ])
        // The card ids as docs/projections.md defines them, computed by Python's hashlib.
        let ids = try CLI.python("""
            import hashlib, sys
            for card in sys.argv[1:]:
                text = b"".join(b"%d:%s," % (len(f), f) for f in (x.encode() for x in card.split("|")))
                print(int.from_bytes(hashlib.sha256(text).digest()[:8], "big") & (2**63 - 1))
            """, ["u-1|quiz|geo|q1|0", "u-1|quiz|geo|q2|0", "u-1|quiz|geo|q3|0", "u-1|submission|l1|1|0",
                  "u-1|submission|l1|1|1", "u-1|submission|l1|2|0", "u-2|quiz|geo|q1|0"])
        let id = ids.stdout.split(separator: "\n").map(String.init)
        #expect(id.count == 7, "\(ids.stderr)")
        guard id.count == 7 else { return }
        // Epoch ms: 2025-10-01T06:00:10Z is 1759298410000.
        let expected = """
            card_id,review_time,review_rating,review_state,review_duration
            \(id[0]),1759298410000,3,0,4200
            \(id[0]),1759557620000,3,2,0
            \(id[1]),1759298420000,1,0,0
            \(id[1]),1759557610000,1,2,0
            \(id[2]),1759298430500,2,0,900
            \(id[3]),1759424400000,3,0,0
            \(id[4]),1759647600999,3,0,0
            \(id[5]),1759424400000,1,0,0
            \(id[6]),1759482005000,3,0,0

            """
        let run = try CLI.run(["export", log, "--format", "revlog"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == expected)
        let mine = try CLI.run(["export", log, "--format", "revlog", "--user", "u-2"])
        #expect(mine.stdout == "card_id,review_time,review_rating,review_state,review_duration\n\(id[6]),1759482005000,3,0,0\n")
        let out = try CLI.run(["export", log, "--format", "revlog", "--out", dir.path("revlog.csv")])
        #expect(out.status == 0 && out.stdout.isEmpty)
        #expect(String(decoding: dir.bytes("revlog.csv"), as: UTF8.self) == expected)
    }

    @Test("the learner's dashboard shows today's reviews and the 14-day forecast")
    func dashboard() throws {
        let dir = try TemporaryDirectory()
        let log = try makeLog(dir)
        let run = try CLI.run(["state", log, "--user", "u-1", "--format", "html"])
        #expect(run.status == 0)
        let html = run.stdout
        #expect(html.contains("<div class=\"value\">2 of 20 done</div><div class=\"name\">reviews today</div>"))
        #expect(html.contains("<table id=\"table-review\">"))
        #expect(html.contains("<tr><th scope=\"row\">q3</th><td>quiz geo q3</td><td>–</td><td>2025-10-02</td><td>1</td><td>0</td></tr>"))
        let chart = try #require(html.range(of: "<svg id=\"chart-review-forecast\"").map { String(html[$0.lowerBound...]) })
        let bars = chart.components(separatedBy: "</svg>")[0].components(separatedBy: "<rect class=\"mark\"").dropFirst()
        #expect(bars.count == 14)
        #expect(bars.first?.contains("data-key=\"2025-10-04\" data-value=\"5\"") == true)
        #expect(bars.dropFirst().first?.contains("data-key=\"2025-10-05\" data-value=\"1\"") == true)
    }
}
