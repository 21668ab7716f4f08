import Events
import Ledger

/// `progress-ledger append LOG`: appends events given as JSON lines, all or nothing.
enum AppendCommand: Command {
    static let name = "append"
    static let summary = "append events (JSON lines on stdin, or --event) to a log, all or nothing"
    static let synopsis = "LOG|DIR [--event JSON]... [--no-sync]"
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
    static let examples = ["""
        echo '{"at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"hints.granted","data":{"amount":3,"reason":"seed"}}' \\
          | progress-ledger append learner.log
        """]

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG path")
        let inputs: [(label: String, bytes: ArraySlice<UInt8>)]
        let given = args.all(Self.event)
        if !given.isEmpty {
            inputs = given.enumerated().map { ("--event \($0.offset + 1)", ArraySlice($0.element.utf8)) }
        } else {
            inputs = splitLines(try io.readStandardInput()).map { ("stdin:\($0.number)", $0.bytes) }
        }
        guard !inputs.isEmpty else {
            io.error("progress-ledger append: no events on stdin: nothing appended")
            return ExitCode.ok
        }

        var events: [NewEvent] = []
        var problems: [String] = [], kinds: Set<String> = []
        events.reserveCapacity(inputs.count)
        for input in inputs {
            do {
                events.append(try LineCodec.decodeNewEvent(input.bytes))
            } catch {
                // Each member's problem, not only the first.
                let each = LineCodec.problems(ofNewEvent: input.bytes)
                for problem in each.isEmpty ? [error] : each { io.error("\(input.label): \(describe(problem))"); kinds.insert(problem.kind.rawValue) }
                problems.append(input.label)
            }
        }
        guard problems.isEmpty else {
            io.error("progress-ledger append: \(problems.count) invalid event\(problems.count == 1 ? "" : "s") (\(kinds.sorted().joined(separator: ", "))); "
                     + "nothing was appended to \(path)")
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
            if error.code == .invalidEvent, let index = error.eventIndex, inputs.indices.contains(index),
               case .event(let problem)? = error.cause {
                io.error("\(inputs[index].label): \(describe(problem))")
                io.error("progress-ledger append: nothing was appended to \(path)")
                return ExitCode.failure
            }
            if error.code == .conflictingDuplicate, let index = error.eventIndex, inputs.indices.contains(index) {
                io.error("\(inputs[index].label): \(error)")
                io.error("progress-ledger append: nothing was appended to \(path)")
                return ExitCode.failure
            }
            throw error
        }
        for r in results {
            io.line("\(r.seq) \(r.id)")
            if r.status == .alreadyPresent {
                io.error("progress-ledger append: id \(r.id) is already in the log at seq \(r.seq): not appended again")
            }
        }
        return ExitCode.ok
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
                if error.code == .invalidEvent, let index = error.eventIndex, learner.indices.indices.contains(index),
                   case .event(let problem)? = error.cause {
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
    static func describe(_ error: EventError) -> String {
        error.member.map { "\($0): \(error.rule)" } ?? "\(error.kind.rawValue): \(error.rule)"
    }

    /// Splits input into lines at LF; a last line without LF counts too.
    static func splitLines(_ bytes: [UInt8]) -> [(number: Int, bytes: ArraySlice<UInt8>)] {
        var lines: [(Int, ArraySlice<UInt8>)] = []
        var start = 0
        var number = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            number += 1
            lines.append((number, bytes[start..<i]))
            start = i + 1
        }
        if start < bytes.count {
            number += 1
            lines.append((number, bytes[start...]))
        }
        return lines
    }
}
