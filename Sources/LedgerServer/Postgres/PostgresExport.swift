import Events
import Ledger

/// `progress-ledger export --store URI DIR`: the ledger directory a
/// PostgreSQL store's lines make, byte for byte (each learner's rows in seq
/// order, each checked as `verify` checks a line), read in one snapshot
/// (`REPEATABLE READ`), so that `verify DIR`, `report DIR` and the rest read
/// what the servers acknowledged.
package enum PostgresExport {
    /// What was written.
    package struct Summary: Sendable {
        package var learners = 0
        package var events = 0
    }

    /// Writes the store at `uri` as a new ledger directory at `path`. The
    /// message of an error never holds the URI's password.
    package static func export(uri: String, to path: String) throws(ServerError) -> Summary {
        #if canImport(CLibpq)
        let connection: PGConnection
        do { connection = try PGConnection(uri) } catch { throw ServerError("\(error)") }
        do throws(PGError) {
            try connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let learners = try connection.run("SELECT DISTINCT learner FROM progress_ledger_lines ORDER BY learner").rows.map { $0[0] ?? [] }
            let directory: LedgerDirectory
            do { directory = try LedgerDirectory.create(at: path) } catch { throw PGError(.failed, error.description) }
            var summary = Summary()
            for learner in learners {
                let user = String(decoding: learner, as: UTF8.self)
                let rows = try connection.run("SELECT line FROM progress_ledger_lines WHERE learner = $1 ORDER BY seq", [.bytea(learner)]).rows
                let log = StoredLog(name: PostgresStore.name(user))
                var bytes: [UInt8] = []
                do throws(LedgerError) {
                    for row in rows {
                        let line = row[0] ?? []
                        try log.accept(line)
                        bytes += line
                        bytes.append(0x0A)
                    }
                    try directory.makeFolder(forLearner: LedgerDirectory.learnerName(user: user))
                    try SmallFile.write(bytes, to: directory.learnerPath(user: user))
                } catch {
                    throw PGError(.failed, error.description)
                }
                summary.learners += 1
                summary.events += rows.count
            }
            try connection.run("COMMIT")
            return summary
        } catch {
            throw ServerError("exporting \(PGURI.redacted(uri)) to \(path): \(error)")
        }
        #else
        throw ServerError("this build has no PostgreSQL support (libpq)")
        #endif
    }
}
