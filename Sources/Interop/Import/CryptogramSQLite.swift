#if canImport(CSQLite)
import CSQLite

/// Reads `puzzle_progress_attempts` from the app's SQLite file, opened
/// read-only, through the system SQLite library.
enum CryptogramSQLite {
    static func rows(path: String) throws(CryptogramFileError) -> [CryptogramRow] {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw CryptogramFileError(message: "not a readable SQLite database: \(message)")
        }
        defer { sqlite3_close(db) }
        let sql = "SELECT rowid, " + CryptogramRow.columns.joined(separator: ", ") + " FROM puzzle_progress_attempts ORDER BY rowid"
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            let message = String(cString: sqlite3_errmsg(db))
            let missing = CryptogramRow.columns.first { message.hasSuffix(": " + $0) }
            throw CryptogramFileError(member: missing ?? "puzzle_progress_attempts", message: message)
        }
        defer { sqlite3_finalize(statement) }
        var rows: [CryptogramRow] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                throw CryptogramFileError(message: "reading puzzle_progress_attempts: " + String(cString: sqlite3_errmsg(db)))
            }
            var cells: [CryptogramRow.Cell] = []
            for k in 1...CryptogramRow.columns.count {
                let column = Int32(k)
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL: cells.append(.null)
                case SQLITE_INTEGER, SQLITE_FLOAT:
                    cells.append(.number(String(sqlite3_column_double(statement, column))))
                default:
                    let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    cells.append(.text(text))
                }
            }
            let rowid = sqlite3_column_int64(statement, 0)
            let id: String = if case .text(let s) = cells[0] { s } else { CryptogramStore.describe(cells[0]) }
            rows.append(CryptogramRow(label: "rowid \(rowid) (attempt_id \(id))", cells: cells))
        }
        return rows
    }
}
#else
/// Without the system SQLite library: the CSV form only.
enum CryptogramSQLite {
    static func rows(path: String) throws(CryptogramFileError) -> [CryptogramRow] {
        throw CryptogramFileError(message: "this build has no SQLite library; export the table as CSV (sqlite3 -csv -header)")
    }
}
#endif
