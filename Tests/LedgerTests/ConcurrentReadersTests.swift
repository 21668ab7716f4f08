import Events
import Foundation
import Testing
@testable import Ledger

/// Eight writer processes and readers at the same time (a small version of
/// scripts/concurrency-soak, which runs 8 x 10,000).
@Suite("Writers with readers", .serialized)
struct ConcurrentReadersTests {
    @Test func eightWritersWhileReadersStreamAndVerify() throws {
        let dir = try TempDir("readers")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let stop = dir.file("stop")
        let perWriter = 250
        let batches = [1, 2, 5, 10, 20, 25, 50, 100]
        try LedgerWriter(path: log).close()

        // A reader process: streams the log again and again until told to stop.
        let streamer = Process()
        streamer.executableURL = URL(fileURLWithPath: Products.ledgerStress)
        streamer.arguments = ["read-loop", log, "--until", stop, "--min-passes", "3"]
        let streamOut = Pipe(), streamErr = Pipe()
        streamer.standardOutput = streamOut
        streamer.standardError = streamErr
        try streamer.run()

        // A reader in this process: verify and the raw read, in a loop, on another thread.
        nonisolated(unsafe) var passes = 0
        nonisolated(unsafe) var readerProblems: [String] = []
        let stopping = StopFlag()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var previous: Head? = nil
            while !stopping.isSet || passes < 3 {
                do {
                    try LogReader(path: log).forEachLine { line in
                        if case .failure(let e) = line.record { readerProblems.append("a complete line does not decode: \(e)") }
                    }
                    let report = try verify(path: log, expectHead: previous)
                    if let p = report.problem { readerProblems.append("\(p)") }
                    if report.events > 0 { previous = report.head }
                } catch {
                    readerProblems.append("\(error)")
                }
                passes += 1
                if !readerProblems.isEmpty { break }
            }
            done.signal()
        }

        let writers = try batches.enumerated().map { k, b in try StressProcess(log: log, writer: "p\(k)", count: perWriter, batch: b) }
        let results = writers.map { $0.finish() }
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        stopping.set()
        done.wait()
        streamer.waitUntilExit()
        let streamed = String(decoding: streamOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let streamError = String(decoding: streamErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        for r in results { #expect(r.status == 0, "\(r.err)") }
        #expect(streamer.terminationStatus == 0, "\(streamError)")
        #expect(streamed.hasPrefix("passes "), "\(streamed)")
        #expect(readerProblems.isEmpty, "\(readerProblems)")
        #expect(passes >= 3)

        let total = perWriter * batches.count
        let report = try verify(path: log)
        #expect(report.isOK && report.events == total && report.warnings.isEmpty, "\(String(describing: report.problem))")
        var ids: [String] = []
        try LogReader(path: log).read { ids.append($0.id) }
        #expect(Set(ids).count == total)
        for (k, r) in results.enumerated() {
            #expect(r.acks.map(\.id) == (1...perWriter).map { "p\(k)-\($0)" })
            for ack in r.acks { #expect(ids[ack.seq - 1] == ack.id) }
            #expect(ids.filter { $0.hasPrefix("p\(k)-") } == (1...perWriter).map { "p\(k)-\($0)" })
        }
        #expect(try pythonCheck(log).out.hasPrefix("ok \(total) "))
        print("writers with readers: 8 writers x \(perWriter) events; in-process reader \(passes) passes; streamer: \(streamed.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}

/// A flag the test's thread sets and the reader's thread reads.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
