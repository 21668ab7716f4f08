@testable import Events
import Foundation
import Testing
@testable import Ledger

/// The report's read of a long log folds on a thread of its own
/// (`KeptFoldThread`): each checked chunk is handed over with its views in
/// it, and filled again only once they are folded. A slow fold makes the
/// reading thread wait for chunks while views of earlier ones are still
/// read: every view must still read its own line, in log order, and an
/// error of the fold must stop the read.
@Suite("Fold thread: the report's views folded apart, chunks filled again only once folded")
struct FoldThreadTests {
    /// A demo log over the pipeline's 1 MiB (so the workers and the fold thread run).
    static func log(_ dir: TempDir) throws -> (path: String, lines: [[UInt8]]) {
        let (path, lines) = try KeptRecordsTests.demo(dir, users: 40, days: 20)
        #expect(lines.reduce(0) { $0 + $1.count + 1 } > 2 << 20)
        return (path, lines)
    }

    @Test("a slow fold: every view as decoding its line whole, in order, with 4 KiB and 1 MiB reads", arguments: [4096, 1 << 20])
    func slowFold(chunkSize: Int) throws {
        let dir = try TempDir("fold-thread")
        defer { dir.cleanup() }
        let (path, lines) = try Self.log(dir)
        var events: [FoldEventsTests.Value] = []
        let summary = try LogReader(path: path, chunkSize: chunkSize).readFoldEvents { view in
            events.append(FoldEventsTests.Value(view))
            // Now and then the fold falls behind: the reading thread runs ahead
            // until every chunk is in the fold, and waits for one back.
            if events.count % 997 == 0 { usleep(2_000) }
        }.summary
        #expect(summary.events == lines.count)
        let whole = try lines.compactMap { try FoldEventsTests.expected($0) }
        #expect(events.count == whole.count)
        for (k, (got, want)) in zip(events, whole).enumerated() where got != want {
            Issue.record("event \(k): \(got)\nis not\n\(want)")
            break
        }
    }

    @Test("the fold's error stops the read and is what it throws, also before a damaged line")
    func foldError() throws {
        let dir = try TempDir("fold-thread")
        defer { dir.cleanup() }
        let (path, lines) = try Self.log(dir)
        let stopAt = lines.count / 3
        // A fold that throws at its `stopAt`-th event: the read throws that error, having folded no more.
        func readStopping() {
            var seen = 0
            do throws(LedgerError) {
                _ = try LogReader(path: path).readFoldEvents { (_) throws(LedgerError) in
                    seen += 1
                    if seen == stopAt { throw LedgerError(.io, path: "fold", "stop at \(seen)") }
                }
                Issue.record("the read did not throw")
            } catch {
                #expect(error.description.contains("stop at \(stopAt)"))
            }
            #expect(seen == stopAt)
        }
        readStopping()

        // A line that is not JSON well after the fold's error: the fold's error still.
        var damaged = lines
        damaged[lines.count * 2 / 3] = Array("not json".utf8)
        try Files.write(path, damaged.flatMap { $0 + [0x0A] })
        readStopping()
        // Without the fold's error, the damaged line's, as verify says it.
        let verdict = try LogReader(path: path).verify()
        do throws(LedgerError) {
            _ = try LogReader(path: path).readFoldEvents { _ in }
            Issue.record("the read did not throw")
        } catch {
            let problem = try #require(verdict.problem)
            #expect(error.description.contains(problem.description))
        }
    }
}
