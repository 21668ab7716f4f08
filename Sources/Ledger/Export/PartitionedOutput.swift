/// A folder of Hive-style partitions, `OUT/day=YYYY-MM-DD/part-NNNNN.jsonl`,
/// written whole or not at all (docs/analytics.md, "The command").
///
/// `OUT` must not exist or be an empty folder. Rows go to a new sibling
/// folder `OUT.tmp-<pid>`, each day's rows in the order added, at most
/// `rowsPerPart` a part; ``finish()`` renames it to `OUT`. Files are 0600,
/// folders 0700. Each day keeps a small buffer; a part file is opened only to
/// append a full buffer, so any number of days can be open.
public final class PartitionedOutput {
    /// Rows a part holds at most.
    public let rowsPerPart: Int
    /// The final folder.
    public let path: String
    private let folder: WholeFolder
    private var temporary: String { folder.temporary }
    private let system = System()
    private var days: [String: DayPart] = [:]   // not a format string: an ASCII date YYYY-MM-DD
    private static let bufferLimit = 64 << 10

    private struct DayPart {
        var part = 0
        var rows = 0
        var buffer: [UInt8] = []
        var created = false
    }

    /// Starts an export to `path`; refuses a `path` that is not missing or an empty folder.
    public init(path: String, rowsPerPart: Int = 100_000) throws(LedgerError) {
        self.path = path
        self.rowsPerPart = max(1, rowsPerPart)
        folder = try WholeFolder(path: path)
    }

    /// Adds one row (a whole line, LF included) to the folder of `day`.
    public func add(day: String, line: [UInt8]) throws(LedgerError) {
        var state = days[day] ?? DayPart()   // days are ASCII dates (not a format string compared)
        if !state.created {
            let folder = "\(temporary)/day=\(day)"
            do { try system.mkdir(folder) } catch { throw LedgerError(error, path: folder, doing: "creating a day folder") }
            state.created = true
        }
        if state.rows == rowsPerPart {
            try flush(day, &state)
            state.part += 1
            state.rows = 0
        }
        state.buffer.append(contentsOf: line)
        state.rows += 1
        if state.buffer.count >= Self.bufferLimit { try flush(day, &state) }
        days[day] = state
    }

    /// Writes what is buffered and renames the folder to its final name.
    public func finish() throws(LedgerError) {
        for day in days.keys.sorted() {
            guard var state = days[day] else { continue }
            try flush(day, &state)
            days[day] = state
        }
        try folder.finish()
    }

    private func flush(_ day: String, _ state: inout DayPart) throws(LedgerError) {
        guard !state.buffer.isEmpty else { return }
        let name = String(state.part)
        let file = "\(temporary)/day=\(day)/part-\(String(repeating: "0", count: max(0, 5 - name.count)) + name).jsonl"
        do throws(SystemCallError) {
            try system.append(state.buffer, toFile: file, create: (try? system.lstat(file)) == nil)
        } catch {
            throw LedgerError(error, path: file, doing: "writing a part")
        }
        state.buffer.removeAll(keepingCapacity: true)
    }
}
