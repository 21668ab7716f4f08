import Events
import Interop
import Ledger

/// `progress-ledger import`: one learner's progress from an app's old store
/// (docs/import.md). Parses the options, reads the files, calls
/// `Interop.Importer`, prints the problems or the events, appends the batch.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "one learner's progress from an app's old store (daily-quiz, cryptogram, ...)"
    static let help = """
        Reads one learner's old store and appends v1 events for the progress it
        holds, so that 'state' shows what the old app showed (docs/import.md has
        every store's mapping). KIND is one of:
          cryptogram     puzzle_progress_attempts: the app's SQLite file, or the
                         same table as CSV (sqlite3 -csv -header)
          sat-attempts   attempts history responses (one JSON array per file) of
                         the passage or lesson --content
          quiz-app       redux-persist persist:root: the hint balance
          daily-quiz     UserDefaults as JSON: quizHistory and quizProgress.YYYYMMDD

        Every row is mapped first. A row that cannot be mapped is named as
        'FILE: ROW: MEMBER: what is wrong', and nothing is appended (exit 1).
        Otherwise the events are appended as one batch. Their ids are derived from
        the user and the row's own key, so importing the same store twice appends
        nothing. Made-up members are marked ("assumed"), every event carries
        "imported": KIND, and what was assumed is said on stderr.

        In a ledger directory DIR, the events go to U's learner log (made when new).
        """
    static let from = Option<ImportKind>.choice("--from", value: "KIND", help: "the store's kind").required
    static let device = Option("--device", value: "D", help: "written as every event's device")
    static let utcOffset = Option("--utc-offset", value: "±HH:MM", help: "the offset the store's instants are written in")
        .defaulting(to: ImportSettings.defaultOffset).only(with: from, .dailyQuiz, .cryptogram, .satAttempts)
    static let kind = Option<SubmissionMade.Kind>.choice("--kind", value: "K", help: "passage or lesson").only(with: from, .satAttempts)
    static let content = Option("--content", value: "ID", help: "the passage's or lesson's id").only(with: from, .satAttempts)
    static let category = Option("--category", value: "C", help: "its category").only(with: from, .satAttempts)
    static let at = Option("--at", value: "TIME", help: "the grant's time (RFC 3339 with offset); required when the store holds hints (it keeps no time)") {
        (text) throws(CLIError) in do { return try Timestamp(parsing: text) } catch { throw .usage("--at \(error) (got '\(text.prefixForMessage)')") }
    }.only(with: from, .quizApp)
    static let dryRun = Flag("--dry-run", help: "print the events (JSON lines, without seq and prev); append nothing")
    static let options: [any OptionSpec] = [from, Common.user, device, utcOffset, kind, content, category, at, dryRun]
    static let usage = [Form("LOG|DIR", [.option(from), .operand("FILE...")] + Usage.of([Common.user, device, utcOffset, dryRun])),
                        Form("", [.note(ImportKind.satAttempts.rawValue, [.option(kind), .option(content), .option(category)])]),
                        Form("", [.note(ImportKind.quizApp.rawValue, [.option(at)])])]
    static let examples = """
        progress-ledger import learner.log --from cryptogram app.sqlite --user u-42
        progress-ledger import learner.log --from sat-attempts p1.json --user u-42 \\
            --kind passage --content p-1 --category reading --utc-offset -05:00
        progress-ledger import learner.log --from quiz-app persist-root.json --user u-42 \\
            --at 2025-10-24T12:00:00+02:00 --dry-run
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        guard args.positionals.count >= 2 else { throw CLIError.usage("expected LOG and at least one FILE") }
        let given = args.positionals[0]
        let paths = Array(args.positionals.dropFirst())
        let kind = try args.required(Self.from)
        let user = try args.required(Common.user)
        let log = try LogInput.learnerLog(given, user: user).path
        guard let settings = ImportSettings(user: user, device: args[Self.device],
                                            offset: args[Self.utcOffset], at: args[Self.at]) else {
            throw CLIError.usage("--utc-offset takes ±HH:MM (got '\(args[Self.utcOffset].prefixForMessage)')")
        }
        var target: SubmissionTarget?
        if kind == .satAttempts {
            guard let kind = args[Self.kind], let content = args[Self.content], !content.isEmpty,
                  let category = args[Self.category], !category.isEmpty else {
                throw CLIError.usage("--from sat-attempts needs --kind passage|lesson, --content ID and --category C")
            }
            target = SubmissionTarget(kind: kind, content: content, category: category)
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for path in paths {
            do { files.append((path, try SmallFile.read(path))) } catch { throw CLIError.failure(error.description) }
        }
        let batch: ImportBatch
        switch Importer.map(kind, files: files, settings: settings, submission: target) {
        case .failure(let failure):
            for p in failure.problems.prefix(20) { io.error(p.description) }
            if failure.problems.count > 20 { io.error("... and \(failure.problems.count - 20) more") }
            throw CLIError.failure("\(failure.problems.count) bad row\(failure.problems.count == 1 ? "" : "s"); nothing was appended to \(log)")
        case .success(let b):
            batch = b
        }
        for note in batch.assumptions { io.error(note) }
        if args[Self.dryRun] {
            for event in batch.events { io.write(bytes: Importer.dryRunLine(event)) }
            io.error("dry run: \(batch.events.count) event\(batch.events.count == 1 ? "" : "s"), nothing appended to \(log)")
            return ExitCode.ok
        }
        guard !batch.events.isEmpty else {
            io.error("appended 0 events")
            return ExitCode.ok
        }
        // An id the log has with other content is refused by the writer (conflicting_duplicate), whole batch.
        let (outcome, recoveries) = try append(batch.events, to: given, log: log)
        for recovery in recoveries { io.error("progress-ledger import: \(recovery)") }
        let results: [AppendResult]
        do { results = try outcome.get() } catch { throw CLIError.failure("\(error.description); nothing was appended") }
        let appended = results.filter { $0.status == .appended }
        let present = results.count - appended.count
        let range = appended.first.map { first in " (seq \(first.seq)-\(appended.last?.seq ?? first.seq))" } ?? ""
        io.error("appended \(appended.count) event\(appended.count == 1 ? "" : "s")\(range); \(present) \(present == 1 ? "was" : "were") already in the log")
        return ExitCode.ok
    }

    /// Appends the batch to LOG, or in a ledger directory to U's learner log
    /// (made when new) through `LedgerDirectory.append`: what it did, and the
    /// torn tails the writer moved aside on opening the log.
    static func append(_ events: [NewEvent], to given: String,
                       log: String) throws -> (Result<[AppendResult], LedgerError>, recoveries: [Recovery]) {
        // Every event of the batch is U's: the directory appends to one learner log.
        if let directory = try LogInput.directory(given), let learner = directory.append(events).first {
            return (learner.outcome, learner.recoveries)
        }
        let writer = try LedgerWriter(path: log)
        defer { writer.close() }
        return (Result { () throws(LedgerError) in try writer.append(events) }, writer.recoveries)
    }
}
