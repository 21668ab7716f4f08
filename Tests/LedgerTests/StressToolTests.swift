import Events
import Foundation
import Testing
@testable import Ledger

/// `ledger-stress append-loop` and `plain-loop`, as the benchmark uses them.
@Suite("ledger-stress: append-loop and its plain baseline")
struct StressToolTests {
    /// `"prev":"<64 hex>"` replaced by zeros.
    static func withoutPrev(_ line: [UInt8]) -> String {
        String(decoding: line, as: UTF8.self)
            .replacingOccurrences(of: #""prev":"[0-9a-f]{64}""#, with: #""prev":"\#(Envelope.genesis)""#, options: .regularExpression)
    }

    @Test func plainLoopWritesTheSameLinesWithoutTheChain() throws {
        let dir = try TempDir("stress")
        defer { dir.cleanup() }
        let appended = dir.file("a.log"), plain = dir.file("p.log")
        let options = ["--writer", "w7", "--start", "95", "--count", "250", "--batch", "40"]
        let a = try run(Products.ledgerStress, ["append-loop", appended, "--quiet", "--stats"] + options)
        #expect(a.status == 0 && a.out.isEmpty, "\(a.err)")  // --quiet: nothing per event
        #expect(a.err.hasPrefix("append-loop: 250 events in batches of 40, fsync per batch: "), "\(a.err)")
        #expect(a.err.contains("in LedgerWriter.append "))
        let p = try run(Products.ledgerStress, ["plain-loop", plain, "--stats"] + options)
        #expect(p.status == 0, "\(p.err)")
        let size = try Files.bytes(appended).count
        #expect(p.err.hasPrefix("plain-loop: 250 events, \(size) bytes, in batches of 40, fsync per batch: "), "\(p.err)")

        let ours = try Files.lines(appended), theirs = try Files.lines(plain)
        #expect(ours.count == 250 && theirs.count == 250)
        #expect(ours.map(Self.withoutPrev) == theirs.map(Self.withoutPrev))
        #expect(try verify(path: appended).isOK)
        #expect(theirs.allSatisfy { Self.withoutPrev($0) == String(decoding: $0, as: UTF8.self) })  // no chain: prev all zeros
    }

    @Test(arguments: [2, 300])
    func plainLoopWithFixedLineLength(bytes: Int) throws {
        let dir = try TempDir("stress")
        defer { dir.cleanup() }
        let plain = dir.file("p.log")
        let r = try run(Products.ledgerStress, ["plain-loop", plain, "--count", "95", "--batch", "10", "--bytes", "\(bytes)", "--deferred"])
        #expect(r.status == 0, "\(r.err)")
        let data = try Files.bytes(plain)
        #expect(data.count == 95 * bytes)
        #expect(Set(try Files.lines(plain).map(\.count)) == [bytes - 1])
        #expect(try run(Products.ledgerStress, ["plain-loop", plain, "--count", "1", "--bytes", "1"]).status == 64)
    }

    @Test func appendLoopAcksEveryEvent() throws {
        let dir = try TempDir("stress")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let r = try run(Products.ledgerStress, ["append-loop", log, "--writer", "x", "--count", "25", "--batch", "10", "--deferred"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        #expect(r.out == (1...25).map { "ack \($0) x-\($0)\n" }.joined())
        // The events: attempts of ten (start, eight answers, finish) of one learner.
        var types: [EventType] = []
        try LogReader(path: log).read { if case .event(let e) = $0 { types.append(e.event.type); #expect(e.user == "u-x") } }
        #expect(types.prefix(10) == [.quizStarted] + Array(repeating: .answerSelected, count: 8) + [.quizFinished])
    }
}
