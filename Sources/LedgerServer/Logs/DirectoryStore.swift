import Dispatch
import Events
import Ledger

/// The learner logs of a ledger directory, one writer kept open per learner
/// (``OpenLogs``): the default store.
final class DirectoryStore: LearnerStore {
    let ledger: LedgerDirectory
    let logs: OpenLogs
    /// Wakes requests waiting for a change (`wait=`): every push signals it.
    let changes = ChangeSignal()

    init(directory: LedgerDirectory, openLogs: Int, metrics: ServerMetrics = ServerMetrics()) {
        ledger = directory
        logs = OpenLogs(directory: directory, capacity: openLogs, metrics: metrics)
    }

    func withDirectory<T>(_ body: (LedgerDirectory) throws(LedgerError) -> T) throws(HTTPError) -> T {
        do throws(LedgerError) { return try body(ledger) } catch {
            throw HTTPError(server: error, directory: ledger)
        }
    }

    /// The learner log under its writer (no push lands during `body`), its lines counted after catching up.
    func withLearnerLog<T>(user: String, _ body: (LedgerDirectory, _ lines: Int?) throws(LedgerError) -> T) throws(HTTPError) -> T {
        do throws(LedgerError) {
            return try logs.withWriter(user: user, create: false) { (writer) throws(LedgerError) in
                guard let writer else { return try body(ledger, nil) }
                return try body(ledger, try writer.refreshedHead().seq)
            }
        } catch {
            throw HTTPError(server: error, directory: ledger)
        }
    }

    func push(user: String, events: [NewEvent], lines: [AppendInput.Line]) throws(HTTPError) -> (results: [AppendResult], head: Head, durableNanoseconds: UInt64) {
        do throws(LedgerError) {
            let answer = try logs.withWriter(user: user, create: true) { (writer) throws(LedgerError) in
                guard let writer else {   // `create` makes the log: a writer is always given
                    throw LedgerError(.io, path: ledger.path, "no learner log was opened for the push")
                }
                let results = try writer.append(events)
                return (results, writer.head, writer.lastFsyncNanoseconds)
            }
            if answer.0.contains(where: { $0.status == .appended }) { changes.signal() }
            return answer
        } catch {
            throw HTTPError(append: error, lines: lines, directory: ledger)
        }
    }

    func head(user: String) throws(HTTPError) -> Head {
        do throws(LedgerError) {
            return try logs.withWriter(user: user, create: false) { (writer) throws(LedgerError) in
                try writer?.refreshedHead() ?? .empty
            }
        } catch {
            throw HTTPError(server: error, directory: ledger)
        }
    }

    func lines(user: String, after: Int, limit: Int) throws(HTTPError) -> (head: Head, body: Response.Body) {
        do throws(LedgerError) {
            let slice = try logs.withWriter(user: user, create: false) { (writer) throws(LedgerError) in
                try writer?.slice(after: after, limit: limit) ?? LogSlice(path: "", head: .empty)
            }
            return (slice.head, .lines(slice))
        } catch {
            throw HTTPError(server: error, directory: ledger)
        }
    }

    func forEachRecord(user: String, _ body: (Record) -> Void) throws(HTTPError) {
        let path = ledger.learnerPath(user: user)
        do throws(LedgerError) {
            if LedgerDirectory.isFile(path) {
                try LogReader(path: path).read(.init(user: user)) { record in body(record) }
            }
        } catch {
            throw HTTPError(server: error, directory: ledger)
        }
    }

    /// The feed over a directory: `501` (docs/sync.md, "The change feed").
    func feed(after cursor: FeedCursor, limit: Int) throws(HTTPError) -> FeedPage {
        throw .notOnThisStore("the change feed (GET /v1/events)")
    }
}
