import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `ledger-stress append-loop` child process.
final class StressProcess {
    let process = Process()
    let out = Pipe()
    let err = Pipe()

    init(log: String, writer: String, count: Int, batch: Int, start: Int = 1) throws {
        process.executableURL = URL(fileURLWithPath: Products.ledgerStress)
        process.arguments = ["append-loop", log, "--writer", writer, "--count", "\(count)", "--batch", "\(batch)", "--start", "\(start)"]
        process.standardOutput = out
        process.standardError = err
        try process.run()
    }

    /// Stdout read so far.
    private var head = Data()

    func kill() { _ = Glibc.kill(process.processIdentifier, SIGKILL) }

    /// Blocks until the child printed its first ack line (or exited).
    func waitForFirstAck() {
        while !head.contains(0x0A) {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { return }
            head.append(data)
        }
    }

    /// Waits for the exit; returns the acks `(seq, id)` it printed (whole lines only) and its stderr.
    func finish() -> (status: Int32, acks: [(seq: Int, id: String)], err: String) {
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async {
            errData = errHandle.readDataToEndOfFile()
            group.leave()
        }
        let data = head + out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var acks: [(Int, String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {  // the last piece has no LF
            let parts = line.split(separator: " ")
            if parts.count == 3, parts[0] == "ack", let seq = Int(parts[1]) { acks.append((seq, String(parts[2]))) }
        }
        return (process.terminationStatus, acks, String(decoding: errData, as: UTF8.self))
    }
}

@Suite("Processes", .serialized)
struct ProcessTests {
    @Test func stressBinaryIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Products.ledgerStress), "\(Products.ledgerStress)")
    }

    /// SIGKILL a writer at random moments (seeded), reopening and continuing
    /// between kills; sometimes leave a torn tail as a writer killed mid-write
    /// would. Every acknowledged event stays in the log at the seq it was
    /// acknowledged with, the log verifies, and every torn byte is in a side file.
    @Test func sigkillAtRandomMoments() throws {
        let dir = try TempDir("crash")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        var rng = SplitMix64(seed: 20251021)
        var acknowledged: [String: Int] = [:]
        var next = 1
        var injectedTails: [[UInt8]] = []
        var kills = 0
        var killedMidRun = 0
        let started = Date()
        for cycle in 0..<60 {
            let batch = Int.random(in: 1...25, using: &rng)
            let child = try StressProcess(log: log, writer: "w", count: 1_000_000, batch: batch, start: next)
            if cycle % 5 == 4 {
                // A blind moment: often during start-up, the open's check or a recovery.
                usleep(UInt32(Int.random(in: 1_000...150_000, using: &rng)))
            } else {
                // A moment while appending: after the first ack, up to 40 ms later.
                child.waitForFirstAck()
                usleep(UInt32(Int.random(in: 0...40_000, using: &rng)))
            }
            child.kill()
            kills += 1
            let result = child.finish()
            #expect(result.status == SIGKILL, "cycle \(cycle): \(result.err)")
            if !result.acks.isEmpty { killedMidRun += 1 }
            for ack in result.acks {
                if let seq = acknowledged[ack.id] { #expect(seq == ack.seq, "\(ack.id) acknowledged at two seqs") }
                acknowledged[ack.id] = ack.seq
                if let k = Int(ack.id.dropFirst(2)) { next = max(next, k + 1) }
            }
            // Now and then, a writer that died mid-write: bytes after the last LF
            // (only when the log ends in a whole line, so each tail is recovered on its own).
            let bytes = try Files.bytes(log)
            if Int.random(in: 0..<4, using: &rng) == 0, bytes.last == 0x0A {
                let tail = Array(#"{"v":1,"seq":\#(acknowledged.count + 1),"id":"torn-\#(cycle)","at":"2025-"#.utf8)
                    .prefix(Int.random(in: 1...40, using: &rng))
                try Files.append(log, Array(tail))
                injectedTails.append(Array(tail))
            }
        }
        // One last clean writer recovers any tail and finishes.
        let last = try StressProcess(log: log, writer: "w", count: 5, batch: 5, start: next)
        let final = last.finish()
        #expect(final.status == 0, "\(final.err)")
        for ack in final.acks { acknowledged[ack.id] = ack.seq }

        #expect(kills >= 50)
        #expect(killedMidRun >= 40, "most kills should land while appending (\(killedMidRun) of \(kills))")
        let report = try verify(path: log)
        #expect(report.isOK, "\(String(describing: report.problem))")
        #expect(report.warnings.isEmpty)
        // Every acknowledged event is in the log at its acknowledged seq; the ids run w-1, w-2, ... in order.
        var ids: [String] = []
        try LogReader(path: log).read { ids.append($0.id) }
        for (id, seq) in acknowledged {
            #expect(seq <= ids.count && ids[seq - 1] == id, "\(id) acknowledged at \(seq)")
        }
        #expect(ids == (1...ids.count).map { "w-\($0)" })
        #expect(ids.count >= acknowledged.count)
        // Every torn byte is in a side file: each injected tail is one side file's content; no side file
        // holds an LF. (A writer killed during a recovery may leave an extra, partial copy: allowed.)
        let sides = try dir.files().filter { $0.hasPrefix("a.log.torn-") }.map { try Files.bytes(dir.file($0)) }
        var unmatched = sides
        for tail in injectedTails {
            if let k = unmatched.firstIndex(of: tail) { unmatched.remove(at: k) } else { Issue.record("torn tail \(tail) not in any side file") }
        }
        #expect(sides.allSatisfy { !$0.contains(0x0A) })
        #expect(try pythonCheck(log).status == 0)
        print("crash test: \(kills) kills (\(killedMidRun) mid-run), \(acknowledged.count) acknowledged, \(ids.count) in the log, "
              + "\(sides.count) side files (\(injectedTails.count) injected), \(Int(Date().timeIntervalSince(started))) s")
    }

    /// Four processes append 1,000 events each to one log at the same time.
    @Test func fourWritersAppendConcurrently() throws {
        let dir = try TempDir("concurrent")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let batches = [1, 7, 10, 25]
        let writers = try batches.enumerated().map { k, b in try StressProcess(log: log, writer: "p\(k)", count: 1000, batch: b) }
        let results = writers.map { $0.finish() }
        for r in results { #expect(r.status == 0, "\(r.err)") }
        #expect(results.map(\.acks.count) == [1000, 1000, 1000, 1000])

        let report = try verify(path: log)
        #expect(report.isOK, "\(String(describing: report.problem))")
        #expect(report.events == 4000)
        var ids: [String] = []
        try LogReader(path: log).read { ids.append($0.id) }
        #expect(Set(ids).count == 4000)
        for (k, r) in results.enumerated() {
            // Each writer's acks name the line its event is on, and its events are in its order.
            for ack in r.acks { #expect(ids[ack.seq - 1] == ack.id) }
            #expect(r.acks.map(\.id) == (1...1000).map { "p\(k)-\($0)" })
            #expect(r.acks.map(\.seq) == r.acks.map(\.seq).sorted())
        }
        // The writers really interleaved (not one after another).
        let firstWriter = ids.map { $0.prefix(2) }
        var switches = 0
        for k in 1..<firstWriter.count where firstWriter[k] != firstWriter[k - 1] { switches += 1 }
        #expect(switches > 3)
        #expect(try pythonCheck(log).out.hasPrefix("ok 4000 "))
        print("concurrency test: 4 writers x 1000 events, \(switches) writer switches in the log")
    }
}
