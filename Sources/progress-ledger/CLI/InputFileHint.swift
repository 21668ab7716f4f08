import Events
import Ledger

/// A file of input events (the lines `append` reads: no `v`, `seq` or
/// `prev`) given where a log is wanted: `append events.jsonl < ...`,
/// `verify events.jsonl`. The log's first line then fails as a log line;
/// when that line reads as an input event, the message says what the file
/// is and what to do, instead of only "damaged" or "v: is required".
enum InputFileHint {
    /// The sentence for `path` when its line `line` is its first and reads as an input event; nil otherwise.
    static func note(path: String, line: Int) -> String? {
        guard line == 1, let bytes = try? SmallFile.read(path, limit: 1 << 20) else { return nil }
        guard (try? LineCodec.decodeNewEvent(bytes.prefix { $0 != 0x0A })) != nil else { return nil }
        return "\(path) looks like a file of input events (lines without v, seq and prev), not a log: "
            + "append them to a log with 'progress-ledger append LOG < \(path)'"
    }

    /// The sentence for a ledger error about the first line of a file of input events.
    static func note(for error: LedgerError) -> String? {
        guard case .problem(let problem)? = error.cause else { return nil }
        return note(path: error.path, line: problem.line)
    }
}
