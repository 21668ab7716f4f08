import Events
import Ledger
import Projections
import Rendering

/// `progress-ledger audit LOG --user U [--from D] [--to D] [--format text|json] [--out FILE]`
enum AuditCommand: Command {
    static let name = "audit"
    static let summary = "one learner's history in log order, with anomalies and the log's verification"
    static let help = """
        Prints every line of the learner U (exact match) in log order, grouped under
        the learner's days, one readable line per event:

          2025-10-21 Tuesday
          08:15 +03:00  daily quiz "Quran Basics" started · attempt a-1 · 5 questions  · seq 17
          08:16  q2 → choice 1 ✓ inference  · seq 19

        The time is the local time as the device wrote it; the UTC offset is shown
        when it changes. An attempt's answers, hints and end stay under the day it
        started (a line after midnight shows its own date). The log's order is never
        changed: when events of an earlier day were recorded after later ones, that
        day's heading appears again, marked "(continued)".

        Marks: "⏱ late" for an event recorded late (its time is earlier than that of
        an event of the same learner already in the log), "⚠ KIND" for an anomaly
        (unknown_attempt, after_end, duplicate_answer, duplicate_attempt, hint_limit,
        hint_overdraw, newer_version), each explained on the line below. Resets are
        shown where they happened. The footer gives the log's verification result
        and head; a damaged log shows the lines before the damage, then the problem
        (exit 1).
        """
    static let days = DayRange(from: "only the learner days from D on", to: "only the learner days up to D")
    static let output = OutputOptions<TextOrJSON>(help: """
        text or json: one JSON object per line, each event as
        {"kind":"event","seq","id","day","at","device","type","attempt",
        "text","late","anomalies","reset"}, then a last line
        {"kind":"verify","ok","events","newer_version_lines","head",
        "problem","torn_tail","user","shown"}
        """, default: .text)
    static let options: [any OptionSpec] = [Common.user] + days.options + output.options + [Common.quiet]
    static let usage = [Form("LOG|DIR", options: options)]
    static let examples = """
        progress-ledger audit learners.log --user u-42 --from 2025-10-01
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let given = try args.onePositional("LOG")
        let user = try args.required(Common.user)
        // A ledger directory: only the learner's own log is read (seqs are its own).
        let (log, exists) = try LogInput.learnerLog(given, user: user)
        guard exists else { throw CLIError.failure("\(given): no learner log for user '\(user)'") }
        let (from, to) = try days.resolve(args)
        let json = try output.resolve(args) == .json
        let out = DataOutput(args[output.out], io)
        var timeline = AuditTimeline(user: user, from: from, to: to)
        var printer = AuditTextPrinter()
        var shown = 0
        if !json { out.line("Audit of \(user.prefixForMessage) in \(log)\n") }
        let result: Result<LogSummary, LedgerError>
        do {
            result = .success(try LogInput.read(log, io, quiet: args[Common.quiet]) { record in
                guard let entry = timeline.add(record) else { return }
                shown += 1
                if json { out.write(entry.json + [0x0A]) } else { out.write(printer.text(for: entry)) }
            }.summary)
        } catch {
            guard error.code == .damaged else { throw CLIError.failure(error.description) }
            result = .failure(error)
        }
        let footer = AuditFooter(user: user, shown: shown, result: result)
        if json { out.write(footer.json + [0x0A]) } else { out.write(footer.text) }
        try out.finish()
        if case .failure(let error) = result {
            io.error("progress-ledger audit: \(error.description)")
            return ExitCode.failure
        }
        if shown == 0 { io.error("note: no line of user '\(user)' in \(log)\(from != nil || to != nil ? " on those days" : "")") }
        return ExitCode.ok
    }
}

/// The audit's last lines: how many lines were shown and the log's verification.
struct AuditFooter {
    let user: String
    let shown: Int
    let result: Result<LogSummary, LedgerError>

    var text: String {
        var out = (shown > 0 ? "\n" : "") + "── \(shown) line\(shown == 1 ? "" : "s") of \(user)\n"
        switch result {
        case .success(let summary):
            out += "── verify: ok, \(LogInput.describe(summary))\n"
            for warning in summary.warnings { out += "── warning: \(warning)\n" }
        case .failure(let error):
            out += "── verify: FAILED, \(error.message); the lines above are those before the damage\n"
        }
        return out
    }

    var json: [UInt8] {
        var w = JSONWriter()
        var o = ObjectWriter(&w)
        o.key(&w, "kind"); w.string("verify")
        switch result {
        case .success(let summary):
            o.key(&w, "ok"); w.bool(true)
            o.key(&w, "events"); w.integer(summary.events)
            o.key(&w, "newer_version_lines"); w.integer(summary.newerVersionLines)
            o.key(&w, "head"); w.string(summary.head.description)
            o.key(&w, "problem"); w.raw("null")
            o.key(&w, "torn_tail")
            if let tail = summary.tornTail { w.string(tail.warning.description) } else { w.raw("null") }
        case .failure(let error):
            o.key(&w, "ok"); w.bool(false)
            o.key(&w, "events"); w.raw("null")
            o.key(&w, "newer_version_lines"); w.raw("null")
            o.key(&w, "head"); w.raw("null")
            o.key(&w, "problem"); w.string(error.message)
            o.key(&w, "torn_tail"); w.raw("null")
        }
        o.key(&w, "user"); w.string(user)
        o.key(&w, "shown"); w.integer(shown)
        o.end(&w)
        return w.bytes
    }
}
