import Events

/// One row of `puzzle_progress_attempts`, from SQLite or CSV, before it is checked.
struct CryptogramRow {
    /// A cell: NULL, text, or a number (its text).
    enum Cell: Equatable {
        case null
        case text(String)
        case number(String)
    }
    /// The columns read, by name, in this order.
    static let columns = ["attempt_id", "puzzle_id", "encoding_type", "completed_at", "failed_at", "completion_time"]

    /// `line 4` or `rowid 3 (attempt_id X)`.
    let label: String
    /// The six cells in ``columns`` order.
    let cells: [Cell]
}

/// `--from cryptogram`: the third seed's `puzzle_progress_attempts`, one row
/// one `puzzle.completed` or `puzzle.failed` (docs/import.md).
enum CryptogramStore {
    /// SQLite's 16-byte file header.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Maps the rows of every file (SQLite when the bytes start with its header, else CSV).
    static func map(files: [(path: String, bytes: [UInt8])], rules: ImportRules) -> Result<ImportBatch, ImportProblems> {
        var problems: [ImportProblem] = []
        var made: [(at: Timestamp, key: String, event: NewEvent)] = []
        var seen: [ExactString: String] = [:]   // attempt_id -> "FILE: ROW"
        for (path, bytes) in files {
            let rows: [CryptogramRow]
            do {
                rows = bytes.starts(with: sqliteHeader) ? try CryptogramSQLite.rows(path: path)
                                                        : try CryptogramCSV.rows(bytes)
            } catch {
                problems.append(ImportProblem(file: path, row: error.row, member: error.member, error.message))
                continue
            }
            for row in rows {
                func bad(_ member: String, _ message: String) {
                    problems.append(ImportProblem(file: path, row: row.label, member: member, message))
                }
                var texts: [String] = []
                for k in 0..<3 {
                    guard case .text(let s) = row.cells[k], (1...256).contains(s.count) else {
                        bad(CryptogramRow.columns[k], "not a string of 1 to 256 characters: " + describe(row.cells[k]))
                        break
                    }
                    texts.append(s)
                }
                guard texts.count == 3 else { continue }
                if let earlier = seen[ExactString(texts[0])] {
                    bad("attempt_id", "\(texts[0]) already at \(earlier)"); continue
                }
                seen[ExactString(texts[0])] = path + ": " + row.label
                let completed = row.cells[3], failed = row.cells[4], time = row.cells[5]
                guard (completed == .null) != (failed == .null) else {
                    bad("completed_at, failed_at", "exactly one must be set"); continue
                }
                let column = completed != .null ? "completed_at" : "failed_at"
                let cell = completed != .null ? completed : failed
                guard case .text(let when) = cell, let at = rules.timestamp(rfc3339: when) else {
                    bad(column, "not an RFC 3339 time with an offset: " + describe(cell)); continue
                }
                var seconds: Seconds?
                switch time {
                case .null:
                    if completed != .null { bad("completion_time", "required for a completed attempt"); continue }
                case .number(let t), .text(let t):
                    guard let v = Double(t), let s = Seconds(v) else {
                        bad("completion_time", "not a number > 0: " + describe(time)); continue
                    }
                    seconds = s
                }
                let played = PuzzlePlayed(puzzle: texts[1], encoding: texts[2], seconds: seconds, extra: rules.marks())
                let event: Event = completed != .null ? .puzzleCompleted(played) : .puzzleFailed(played)
                made.append((at, texts[0], rules.event(rules.baseID(texts[0]), at: at, event)))
            }
        }
        guard problems.isEmpty else { return .failure(ImportProblems(problems: problems)) }
        return .success(rules.batch(oneEventPerRow: made))
    }

    /// A cell as a message shows it: `"text"`, a number as written, `NULL`.
    static func describe(_ cell: CryptogramRow.Cell) -> String {
        switch cell {
        case .null: "NULL"
        case .number(let n): n
        case .text(let s): "\"" + s + "\""
        }
    }
}

/// Why a whole file (or its header) cannot be read.
struct CryptogramFileError: Error {
    var row: String?
    var member: String?
    var message: String
}
