import Events
import Ledger

/// `progress-ledger export --store URI DIR`: the ledger directory a
/// PostgreSQL store's lines make, byte for byte (each learner's rows in seq
/// order, each checked as `verify` checks a line), read in one snapshot
/// (`REPEATABLE READ`), so that `verify DIR`, `report DIR` and the rest read
/// what the servers acknowledged. The server's reads over the whole store
/// (`GET /v1/report`, `GET /v1/digest`) read the same directory, written
/// the same way into a scratch folder (``PostgresStore``).
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
            let directory: LedgerDirectory
            do { directory = try LedgerDirectory.create(at: path) } catch { throw PGError(.failed, error.description) }
            let summary: Summary
            do throws(ExportFailure) { summary = try write(connection, learner: nil, into: directory, check: true) } catch {
                switch error {
                case .database(let e): throw e
                case .ledger(let e): throw PGError(.failed, e.description)
                }
            }
            return summary
        } catch {
            throw ServerError("exporting \(PGURI.redacted(uri)) to \(path): \(error)")
        }
        #else
        throw ServerError("this build has no PostgreSQL support (libpq)")
        #endif
    }

    /// Why ``write(_:learner:into:check:)`` stopped.
    enum ExportFailure: Error {
        /// The database failed.
        case database(PGError)
        /// A line broke a rule (with `check`), or a learner log could not be written.
        case ledger(LedgerError)
    }

    #if canImport(CLibpq)
    /// Writes every learner's rows (only `learner`'s when given) as their
    /// learner logs into `directory`, read in one snapshot (a `REPEATABLE
    /// READ` transaction on `connection`, ended before returning): each
    /// row's `line` and an LF, in seq order. With `check`, each line is
    /// checked as `verify` checks it first (for `export --store`; a reader of
    /// the directory that checks every line itself does without).
    static func write(_ connection: PGConnection, learner only: [UInt8]?, into directory: LedgerDirectory,
                      check: Bool) throws(ExportFailure) -> Summary {
        do throws(PGError) { try connection.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") } catch { throw .database(error) }
        do throws(ExportFailure) {
            let learners: [[UInt8]]
            if let only {
                learners = [only]
            } else {
                do throws(PGError) {
                    learners = try connection.run("SELECT DISTINCT learner FROM progress_ledger_lines ORDER BY learner").rows.map { $0[0] ?? [] }
                } catch {
                    throw .database(error)
                }
            }
            var summary = Summary()
            for learner in learners {
                let user = String(decoding: learner, as: UTF8.self)
                let rows: [[[UInt8]?]]
                do throws(PGError) {
                    rows = try connection.run("SELECT line FROM progress_ledger_lines WHERE learner = $1 ORDER BY seq", [.bytea(learner)]).rows
                } catch {
                    throw .database(error)
                }
                guard !rows.isEmpty else { continue }
                let log = StoredLog(name: PostgresStore.name(user))
                var bytes: [UInt8] = []
                do throws(LedgerError) {
                    for row in rows {
                        let line = row[0] ?? []
                        if check { try log.accept(line) }
                        bytes += line
                        bytes.append(0x0A)
                    }
                    try directory.makeFolder(forLearner: LedgerDirectory.learnerName(user: user))
                    try SmallFile.write(bytes, to: directory.learnerPath(user: user))
                } catch {
                    throw .ledger(error)
                }
                summary.learners += 1
                summary.events += rows.count
            }
            do throws(PGError) { try connection.run("COMMIT") } catch { throw .database(error) }
            return summary
        } catch {
            if connection.isUsable { _ = try? connection.run("ROLLBACK") }
            throw error
        }
    }
    #endif
}
