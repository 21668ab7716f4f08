#if canImport(CLibpq)
import CLibpq

/// One connection to PostgreSQL through libpq: the only file that calls
/// libpq. Statements go with their parameters apart from the text (never
/// spliced into SQL) and every value in binary form; results come back in
/// binary form too.
///
/// Not thread-safe: one thread at a time (a ``PGPool`` hands it out).
final class PGConnection: @unchecked Sendable {
    private var connection: OpaquePointer?

    /// Connects with a libpq connection URI or key=value string (several
    /// hosts and `target_session_attrs=read-write` find the primary).
    /// The error never holds the URI's password.
    init(_ uri: String) throws(PGError) {
        connection = PQconnectdb(uri)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let message = connection.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            self.connection = nil
            throw PGError(.unavailable, "cannot connect to \(PGURI.redacted(uri)): \(PGError.trimmed(message))")
        }
    }

    deinit { if let connection { PQfinish(connection) } }

    /// Whether the connection still works (false once the server went away).
    var isUsable: Bool { connection.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The statements prepared on this connection (``run(_:_:prepared:)``), by their text: each one's name.
    private var statements: [String: String] = [:]   // not a format string: SQL text, the package's own
    /// The most statements one connection prepares (the rest are sent with their text each time).
    private static let maxStatements = 32

    /// Runs one statement with `parameters` ($1, $2…): its rows (none for a
    /// command). With `prepared`, the statement is parsed and planned once
    /// on this connection (`PQprepare`) and then only executed
    /// (`PQexecPrepared`): for the statements every push sends.
    @discardableResult
    func run(_ sql: String, _ parameters: [PGValue] = [], prepared: Bool = false) throws(PGError) -> PGRows {
        guard let connection else { throw PGError(.unavailable, "the connection is closed") }
        let count = Int32(parameters.count)
        let types = parameters.map(\.oid)
        var name: String?
        if prepared {
            if let known = statements[sql] {
                name = known
            } else if statements.count < Self.maxStatements {
                let new = "progress_ledger_\(statements.count)"
                _ = try check(PQprepare(connection, new, sql, count, types), connection)
                statements[sql] = new
                name = new
            }
        }
        let lengths = parameters.map { Int32($0.bytes.count) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        // Each parameter's bytes, kept alive for the call.
        let buffers = parameters.map { value -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, value.bytes.count))
            value.bytes.withUnsafeBytes { b in
                if let base = b.baseAddress { UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: b.count) }
            }
            return p
        }
        defer { for p in buffers { p.deallocate() } }
        let values: [UnsafePointer<CChar>?] = buffers.map { UnsafePointer($0) }
        if let name {
            return try check(PQexecPrepared(connection, name, count, values, lengths, formats, 1), connection)
        }
        return try check(PQexecParams(connection, sql, count, types, values, lengths, formats, 1), connection)
    }

    /// A result's rows, or its error (the result is cleared either way).
    private func check(_ result: OpaquePointer?, _ connection: OpaquePointer) throws(PGError) -> PGRows {
        guard let result else { throw PGError(.unavailable, PGError.trimmed(String(cString: PQerrorMessage(connection)))) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return PGRows(result)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = PGError.trimmed(String(cString: PQresultErrorMessage(result)))
            throw PGError(sqlState: state, message: message, connectionLost: PQstatus(connection) != CONNECTION_OK)
        }
    }

    /// Runs statements without parameters, separated by `;` (a schema, `LISTEN`).
    func runScript(_ sql: String) throws(PGError) {
        guard let connection else { throw PGError(.unavailable, "the connection is closed") }
        _ = try check(PQexec(connection, sql), connection)
    }

    /// The socket, to wait on for notifications (`LISTEN`).
    var socket: CInt { connection.map { PQsocket($0) } ?? -1 }

    /// Reads what the server sent and returns the channels of the
    /// notifications that arrived (`NOTIFY`), without blocking.
    func notifications() throws(PGError) -> [String] {
        guard let connection else { throw PGError(.unavailable, "the connection is closed") }
        guard PQconsumeInput(connection) == 1 else {
            throw PGError(.unavailable, PGError.trimmed(String(cString: PQerrorMessage(connection))))
        }
        var channels: [String] = []
        while let note = PQnotifies(connection) {
            channels.append(String(cString: note.pointee.relname))
            PQfreemem(note)
        }
        return channels
    }
}

/// The rows of a statement, copied out of libpq's result (binary values).
struct PGRows: Sendable {
    /// Each row's columns: bytes, or nil for NULL.
    let rows: [[[UInt8]?]]

    fileprivate init(_ result: OpaquePointer) {
        let n = PQntuples(result), columns = PQnfields(result)
        var rows: [[[UInt8]?]] = []
        rows.reserveCapacity(Int(n))
        for r in 0..<n {
            var row: [[UInt8]?] = []
            for c in 0..<columns {
                if PQgetisnull(result, r, c) == 1 { row.append(nil); continue }
                let length = Int(PQgetlength(result, r, c))
                let value = PQgetvalue(result, r, c)
                row.append(value.map { p in
                    [UInt8](UnsafeRawBufferPointer(start: UnsafeRawPointer(p), count: length))
                } ?? [])
            }
            rows.append(row)
        }
        self.rows = rows
    }
}
#endif
