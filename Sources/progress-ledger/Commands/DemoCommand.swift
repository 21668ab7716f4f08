import Events
import Ledger
import Projections
import Rendering
import Simulation

/// `progress-ledger demo [--users N] [--days D] [--seed S] [--out DIR]`
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "simulate learners, write their log and an HTML report, and show what the ledger sees"
    static let help = """
        Simulates N learners over D days from 2025-10-06 — several time zones, daylight-
        saving changes and travel; daily quizzes resumed, retried, abandoned and taken
        just before midnight; category quizzes and diagnostics; hints granted, used and
        overdrawn; streak freezes earned every 7 active days (at most 2 held) and
        streak pauses for trips; puzzles solved and failed; lessons and passages
        submitted; a few events recorded late and a few device glitches (anomalies) —
        and appends their events through the ledger's own append path.

        Then prints the log's verification, the state of one learner (the one the demo
        follows, who shows every feature), and the report's totals, and writes the log
        and report.html into DIR. Over their first 14 days, the followed learner's
        devices also record into their own outboxes and sync with a server log of
        their own, through the sync API (a phone syncs at the end of each sitting,
        a tablet syncs late, the next day): DIR/sync holds each device's outbox and
        replica and the learner's server log (docs/sync.md).

        Every learner answers the same questions: a question's right choice is the
        quiz's (or lesson's), whoever answers it. The time grows with learners ×
        days.
        All are created 0600 (learners' activity), whatever
        the umask; report.html is written whole, as 'report --out' writes.

        The same options give the same log, byte for byte: ids and times come from the
        seed, never from a clock or a UUID.
        """
    /// The simulation's own defaults, which the options show and use.
    static let defaults = DemoLog.Options()
    static let users = Option.integer("--users", help: "learners", range: 1...1_000_000).defaulting(to: defaults.users)
    static let days = Option.integer("--days", value: "D", help: "calendar days", range: 1...36_500).defaulting(to: defaults.days)
    static let seed = Option.checked("--seed", value: "S", help: "the seed, a whole number",
                                     takes: "a whole number from 0 to \(UInt64.max)") { UInt64($0) }.defaulting(to: defaults.seed)
    static let out = Option("--out", value: "DIR", help: "where to write demo.log and report.html. DIR is created if needed; a DIR that "
        + "already holds a demo.log is refused, so no log is ever appended to twice")
        .byDefault("a new folder demo/ in the current directory, or demo-2/, demo-3/... if taken")
    static let options: [any OptionSpec] = [users, days, seed, out, Common.quiet]
    static let usage = [Form("", options: options)]
    static let examples = """
        progress-ledger demo --users 200 --days 60 --seed 7 --out /tmp/big-demo
        """

    /// Events appended per batch: one write each; synced once at the end.
    static let batchSize = 2_000

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        if let extra = args.positionals.first { throw CLIError.usage("unexpected argument '\(extra)' (demo takes options only)") }
        let users = args[Self.users]
        let days = args[Self.days]
        let seed = args[Self.seed]
        let directory = try outputDirectory(args[Self.out])
        let logPath = directory + "/demo.log"
        let htmlPath = directory + "/report.html"

        let demo = DemoLog(DemoLog.Options(users: users, days: days, seed: seed))
        let follow = demo.showcaseUser ?? "u-001"
        var followed: [NewEvent] = []
        let syncedDays = min(days, DeviceSchedule.days)
        let syncEnd = demo.options.start.adding(days: syncedDays)
        var recall = DemoRecall(demo)
        let appended = try write(demo, to: logPath) {
            recall.add($0)
            if CodePoint.equal($0.user, follow), $0.at.day < syncEnd { followed.append($0) }
        }
        io.line("Simulated \(users) learner\(users == 1 ? "" : "s") over \(days) day\(days == 1 ? "" : "s") (seed \(seed)): "
                + "appended \(appended) events to \(logPath).")

        let verified: VerifyReport
        do { verified = try verify(path: logPath) } catch { throw CLIError.failure(error.description) }
        io.line("\n$ progress-ledger verify \(logPath)")
        if let problem = verified.problem { throw CLIError.failure("the demo log does not verify: \(problem)") }
        io.line("\(logPath): ok: " + LogInput.describe(verified.summary))

        var projector = LearnerProjector(options: StateOptions(user: follow))
        var builder = ReportBuilder()
        do {
            _ = try LogInput.read(logPath, io, quiet: args[Common.quiet]) { record in
                projector.apply(record)
                builder.add(record)
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        io.line("\n$ progress-ledger state \(logPath) --user \(follow)")
        io.write(projector.state().text)
        let report = builder.report()
        io.line("\n$ progress-ledger report \(logPath) --format html --out \(htmlPath)")
        try OutputFile.write(Array(report.html.utf8), to: htmlPath)
        io.write(totals(report))
        io.write(recall.text)
        try DemoSync.run(DeviceSchedule(followed), user: follow, days: syncedDays, in: directory + "/sync", io)
        io.line("""

            Wrote \(logPath) and \(htmlPath) (open it in a browser). Next (scripts/install puts
            progress-ledger on your PATH; or write swift run progress-ledger):
              progress-ledger audit \(logPath) --user \(follow)
              progress-ledger report \(logPath)
            """)
        return ExitCode.ok
    }

    /// Appends the demo's events in batches through the ledger writer; returns how many.
    private static func write(_ demo: DemoLog, to path: String, _ each: (NewEvent) -> Void) throws(CLIError) -> Int {
        let writer: LedgerWriter
        do { writer = try LedgerWriter(path: path) } catch { throw .failure(error.description) }
        defer { writer.close() }
        var batch: [NewEvent] = []
        batch.reserveCapacity(batchSize)
        var appended = 0
        do {
            for event in demo {
                each(event)
                batch.append(event)
                guard batch.count == batchSize else { continue }
                appended += try writer.append(batch, durability: .deferred).count
                batch.removeAll(keepingCapacity: true)
            }
            appended += try writer.append(batch, durability: .deferred).count
            try writer.sync()
        } catch {
            throw .failure(error.description)
        }
        return appended
    }

    /// The report's range and totals, as the text report prints them.
    private static func totals(_ report: Report) -> String {
        guard let from = report.from, let to = report.to else { return "no events\n" }
        let t = report.totals
        let pct = { (v: Int?) in v.map { "\($0)%" } ?? "–" }
        return """
            \(from) to \(to): \(report.days.count) days, \(t.activeUsers) active users
              quizzes: \(t.quizzesStarted) started, \(t.quizzesFinished) finished (completion \(pct(t.completionRate))), mean score \(pct(t.meanScorePercent))
              answers: \(t.answers), accuracy \(pct(t.accuracy)); hints used: \(t.hintsUsed)
              puzzles: \(t.puzzlesCompleted) solved, \(t.puzzlesFailed) failed; submissions: \(t.submissions)

            """
    }

    /// `--out DIR` (created if missing, refused if it holds a demo.log), or a new `demo`, `demo-2`, ... folder.
    private static func outputDirectory(_ given: String?) throws(CLIError) -> String {
        if let given {
            if let kind = Folders.kind(given), kind != .directory {
                throw .failure("\(given): exists and is not a directory")
            }
            if Folders.kind(given + "/demo.log") != nil {
                throw .failure("\(given)/demo.log already exists: remove it or choose another --out (a demo never appends to an old log)")
            }
            try Folders.create(given)
            return given
        }
        var candidate = "demo"
        var n = 1
        while Folders.kind(candidate) != nil {
            n += 1
            candidate = "demo-\(n)"
        }
        try Folders.create(candidate)
        return candidate
    }
}
