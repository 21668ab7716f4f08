import Events
import Ledger

/// `progress-ledger append LOG`: appends events given as JSON lines, all or nothing.
enum AppendCommand: Command {
    static let name = "append"
    static let summary = "append events (JSON lines on stdin, or --event) to a log, all or nothing"
    static let help = """
        Appends events to LOG (created, mode 0600, if missing). Events come as
        JSON lines on stdin, or as --event arguments, without "seq" and "prev":
        the ledger assigns them, and makes an "id" (a UUID) where none is given.
        It writes "v" too: the format version of the event's type (2 for
        streak.freeze_granted and streak.paused, 1 for the others); an event
        given with another "v" is refused (invalid_envelope, naming v).

        Every event is validated first. If any is invalid, each problem is
        printed as 'stdin:LINE: member: rule' (or '--event N: ...'), then how
        many events are invalid and their kinds (invalid_data, ...), nothing is
        appended, and the exit code is 1. Otherwise the whole batch is written
        and fsync'd, then 'seq id' is printed for each event. An event whose id
        is already in the log is not written again; its existing seq is printed.

        Each call first checks the whole log (as verify does), so appending
        many events is much faster as one call than as one call per event.

        A ledger directory DIR: each event goes to its learner's log, each
        learner's events as one batch, all or nothing per learner. Prints 'seq
        id' (the learner log's seq) for each event of a learner that committed,
        then one line per learner: 'committed: USER: N events (PATH)' or 'not
        committed: USER: why' (exit 1 if any did not). Re-sending the whole
        batch appends only what is missing.
        """
    static let event = Option("--event", value: "JSON", help: "an event to append (repeatable; stdin is then not read)", repeatable: true)
    static let noSync = Flag("--no-sync", help: "skip the fsync (bulk loads: the batch is not durable until the next synced append); default is to fsync")
    static let options: [any OptionSpec] = [event, noSync]
    static let usage = [Form("LOG|DIR", options: options)]
    static let examples = """
        echo '{"at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"seed"}}' \\
          | progress-ledger append learner.log
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG path")
        let inputs: [(label: String, bytes: ArraySlice<UInt8>)]
        let given = args.all(Self.event)
        if !given.isEmpty {
            inputs = given.enumerated().map { ("--event \($0.offset + 1)", ArraySlice($0.element.utf8)) }
        } else {
            inputs = AppendInput.lines(try io.readStandardInput()).map { ("stdin:\($0.number)", $0.bytes) }
        }
        guard !inputs.isEmpty else {
            io.error("progress-ledger append: no events on stdin: nothing appended")
            return ExitCode.ok
        }

        let events: [NewEvent]
        switch AppendInput.decode(inputs.map(\.bytes)) {
        case .events(let decoded):
            events = decoded
        case .invalid(let invalid):
            var kinds: Set<String> = []   // not a format string: error kinds
            for (index, problems) in invalid {
                // Each member's problem, not only the first.
                for problem in problems { io.error("\(inputs[index].label): \(describe(problem))"); kinds.insert(problem.kind.rawValue) }
            }
            io.error("progress-ledger append: \(invalid.count) invalid event\(invalid.count == 1 ? "" : "s") (\(kinds.sorted().joined(separator: ", "))); "
                     + "nothing was appended to \(path)")
            if kinds.contains(EventError.Kind.notJSON.rawValue), spansLines(inputs.map(\.bytes)) {
                io.error("progress-ledger append: the input looks like JSON written over several lines; append reads one event a line "
                         + "(JSON Lines): put each event on one line (e.g. jq -c . FILE | progress-ledger append \(path))")
            }
            return ExitCode.failure
        }

        if let directory = try LogInput.directory(path) {
            return appendToDirectory(directory, events, inputs.map(\.label), durability: args[Self.noSync] ? .deferred : .everyBatch, io)
        }
        let writer = try LedgerWriter(path: path)
        defer { writer.close() }
        for recovery in writer.recoveries { io.error("progress-ledger append: \(recovery)") }
        let results: [AppendResult]
        do {
            results = try writer.append(events, durability: args[Self.noSync] ? .deferred : .everyBatch)
        } catch {
            // Rules that need the whole batch or the log (a repeated id): name the input line.
            guard let (index, problem) = AppendInput.refused(error, count: inputs.count) else { throw error }
            io.error("\(inputs[index].label): \(problem.map(describe) ?? error.description)")
            io.error("progress-ledger append: nothing was appended to \(path)")
            return ExitCode.failure
        }
        for r in results {
            io.line("\(r.seq) \(r.id)")
            if r.status == .alreadyPresent {
                io.error("progress-ledger append: id \(r.id) is already in the log at seq \(r.seq): not appended again")
            }
        }
        return ExitCode.ok
    }

    /// Whether `lines` look like JSON written over several lines (pretty-printed):
    /// they parse as one JSON value together, or a line is only `{` or `[`.
    static func spansLines(_ lines: [ArraySlice<UInt8>]) -> Bool {
        guard lines.count > 1 else { return false }
        let trimmed = lines.map { Array($0.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }.reversed()) }
        if trimmed.contains([UInt8(ascii: "{")]) || trimmed.contains([UInt8(ascii: "[")]) { return true }
        return (try? JSONDocument.parse(Array(lines.joined(separator: [0x0A])))) != nil
    }

    /// `append DIR`: the batch routed to the learner logs; which learners committed.
    static func appendToDirectory(_ directory: LedgerDirectory, _ events: [NewEvent], _ labels: [String],
                                  durability: Durability, _ io: Terminal) -> Int32 {
        let outcomes = directory.append(events, durability: durability)
        var failed = 0
        for learner in outcomes {
            switch learner.outcome {
            case .success(let results):
                for r in results {
                    io.line("\(r.seq) \(r.id)")
                    if r.status == .alreadyPresent {
                        io.error("progress-ledger append: id \(r.id) is already in \(learner.path) at seq \(r.seq): not appended again")
                    }
                }
            case .failure:
                failed += 1
            }
        }
        for learner in outcomes {
            switch learner.outcome {
            case .success(let results):
                io.error("committed: \(learner.user): \(results.count) event\(results.count == 1 ? "" : "s") (\(learner.path))")
            case .failure(let error):
                var why = error.description
                if let (index, problem) = AppendInput.refused(error, count: learner.indices.count), let problem {
                    why = "\(labels[learner.indices[index]]): \(describe(problem))"
                }
                io.error("not committed: \(learner.user): \(why)")
            }
        }
        if failed > 0 {
            io.error("progress-ledger append: \(failed) of \(outcomes.count) learners not committed; re-send the batch to append what is missing")
            return ExitCode.failure
        }
        return ExitCode.ok
    }

    /// `member: rule`, or `kind: rule` for a problem of the whole line.
    static func describe(_ error: EventError) -> String { AppendInput.describe(error) }
}
