import Events
import Foundation
import Testing
@testable import Ledger

/// Builds logs line by line with a correct chain, so one line at a time can be broken.
struct ChainBuilder {
    var lines: [[UInt8]] = []
    var prev: String { lines.last.map { SHA256.hash($0).hex } ?? Envelope.genesis }
    var nextSeq: Int { lines.count + 1 }

    /// Appends a valid v1 event line with this id (and the correct seq and prev unless given).
    mutating func event(_ id: String, seq: Int? = nil, prev: String? = nil) throws {
        let e = try Make.answer(id, question: lines.count + 1)
        lines.append(LineCodec.encode(e.sealed(seq: seq ?? nextSeq, id: id, prev: prev ?? self.prev)))
    }

    /// Appends a raw line made from the seq and prev it should have.
    mutating func raw(_ make: (Int, String) -> String) {
        lines.append(Array(make(nextSeq, prev).utf8))
    }

    var bytes: [UInt8] { lines.flatMap { $0 + [0x0A] } }

    static func valid(_ n: Int) throws -> ChainBuilder {
        var b = ChainBuilder()
        for k in 1...n { try b.event("e-\(k)") }
        return b
    }
}

@Suite("Verify")
struct VerifyTests {
    /// Writes `bytes` to a fresh log and verifies it.
    func verifyBytes(_ bytes: [UInt8], expectHead: Head? = nil) throws -> VerifyReport {
        let dir = try TempDir("verify")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try Files.write(log, bytes)
        let report = try verify(path: log, expectHead: expectHead)
        // The validated read refuses the same logs with the same message.
        if let problem = report.problem {
            if problem.kind != .headMismatch {
                let error = #expect(throws: LedgerError.self) { try LogReader(path: log).read { _ in } }
                #expect(error?.code == .damaged)
                #expect(error?.problem == problem)
                #expect(error?.description == "\(log): \(problem)")
            }
        } else {
            #expect(try LogReader(path: log).read { _ in }.summary == report.summary)
        }
        return report
    }

    @Test func intactLogReportsCountAndHead() throws {
        let b = try ChainBuilder.valid(5)
        let report = try verifyBytes(b.bytes)
        #expect(report.isOK)
        #expect(report.events == 5)
        #expect(report.head == Head(seq: 5, sha256: SHA256.hash(b.lines[4])))
        #expect(report.warnings.isEmpty)
    }

    @Test func emptyLogIsOKWithEmptyHead() throws {
        let report = try verifyBytes([])
        #expect(report.isOK && report.events == 0 && report.head == .empty)
        #expect(report.head.description == "0:" + String(repeating: "0", count: 64))
    }

    @Test func editedMiddleLineShowsAtTheNextLine() throws {
        var b = try ChainBuilder.valid(5)
        b.lines[2] = Array(String(decoding: b.lines[2], as: UTF8.self).replacingOccurrences(of: "\"choice\":1", with: "\"choice\":3").utf8)
        let report = try verifyBytes(b.bytes)
        let problem = try #require(report.problem)
        #expect(problem.line == 4 && problem.kind == .brokenChain)
        #expect(problem.description.hasPrefix("line 4: broken_chain: prev is "))
        #expect(problem.detail.contains("line 3 hashes to \(SHA256.hash(b.lines[2]).hex)"))
        #expect(report.events == 3)
    }

    @Test func removedLineIsASeqGap() throws {
        var b = try ChainBuilder.valid(5)
        b.lines.remove(at: 2)
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.description == "line 3: seq_gap: seq is 4, expected 3 (line n must have seq n)")
    }

    @Test func swappedPairIsASeqGapAtTheFirst() throws {
        var b = try ChainBuilder.valid(5)
        b.lines.swapAt(1, 2)
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.description == "line 2: seq_gap: seq is 3, expected 2 (line n must have seq n)")
    }

    @Test func renumberedSwapIsABrokenChain() throws {
        // A forger who swaps two lines and fixes their seq still breaks the chain.
        var b = try ChainBuilder.valid(3)
        var c = ChainBuilder()
        try c.event("e-1")
        try c.event("e-3", prev: b.prev)  // claims to follow line 3
        b = c
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.line == 2 && problem.kind == .brokenChain)
    }

    @Test func firstLineMustHaveZeroPrev() throws {
        var b = ChainBuilder()
        try b.event("e-1", prev: String(repeating: "a", count: 64))
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.line == 1 && problem.kind == .brokenChain)
        #expect(problem.detail.contains("64 zeros"))
    }

    @Test func duplicateID() throws {
        var b = try ChainBuilder.valid(3)
        try b.event("e-2")
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.description == "line 4: duplicate_id: id \"e-2\" is already used by line 2")
    }

    @Test func tornTailIsAWarningOnly() throws {
        let b = try ChainBuilder.valid(3)
        let report = try verifyBytes(b.bytes + Array(#"{"v":1,"seq":4"#.utf8))
        #expect(report.isOK && report.events == 3)
        #expect(report.head == Head(seq: 3, sha256: SHA256.hash(b.lines[2])))
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.description.hasPrefix("line 4: torn_tail: 14 bytes after the last LF") == true)
    }

    @Test func newerVersionLineIsOK() throws {
        var b = try ChainBuilder.valid(2)
        b.raw { seq, prev in #"{"v":3,"seq":\#(seq),"id":"n-1","prev":"\#(prev)","anything":{"new":[1,2]}}"# }
        try b.event("e-4")
        let report = try verifyBytes(b.bytes)
        #expect(report.isOK && report.events == 4 && report.summary.newerVersionLines == 1)
    }

    @Test func newerVersionLineIsStillCheckedForSeqIDAndPrev() throws {
        var b = try ChainBuilder.valid(2)
        b.raw { seq, _ in #"{"v":3,"seq":\#(seq),"id":"n-1","prev":"\#(String(repeating: "b", count: 64))"}"# }
        #expect(try verifyBytes(b.bytes).problem?.kind == .brokenChain)
        b = try ChainBuilder.valid(2)
        b.raw { seq, prev in #"{"v":3,"seq":\#(seq),"id":"e-1","prev":"\#(prev)"}"# }
        #expect(try verifyBytes(b.bytes).problem?.description == "line 3: duplicate_id: id \"e-1\" is already used by line 1")
    }

    @Test func blankLine() throws {
        var b = try ChainBuilder.valid(3)
        b.lines.insert([], at: 2)
        #expect(try verifyBytes(b.bytes).problem?.description == "line 3: blank_line: the line is empty")
    }

    @Test func crLineEnding() throws {
        var b = try ChainBuilder.valid(3)
        b.lines[1].append(0x0D)
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.line == 2 && problem.kind == .format(.lineEnding))
    }

    @Test(arguments: [
        ("{\"v\":1,", LineProblem.Kind.format(.notJSON)),
        ("[1,2]", .format(.notObject)),
        ("\u{FEFF}{}", .format(.encoding)),
        ("{\"v\":1,\"v\":1}", .format(.duplicateMember)),
        ("{\"v\":1,\"seq\":2}", .format(.invalidEnvelope)),
    ])
    func lineLevelKinds(line: String, kind: LineProblem.Kind) throws {
        var b = try ChainBuilder.valid(1)
        b.lines.append(Array(line.utf8))
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.line == 2 && problem.kind == kind)
    }

    @Test func invalidDataNamesTheMember() throws {
        var b = try ChainBuilder.valid(1)
        b.raw { seq, prev in
            #"{"v":1,"seq":\#(seq),"id":"x","at":"2025-10-21T10:00:00Z","user":"u","type":"answer.selected","data":{"attempt":"a","question":"q","choice":-1,"correct":true},"prev":"\#(prev)"}"#
        }
        let problem = try #require(try verifyBytes(b.bytes).problem)
        #expect(problem.line == 2 && problem.kind == .format(.invalidData))
        #expect(problem.detail.hasPrefix("data.choice: "))
    }

    @Test func invalidUTF8() throws {
        var b = try ChainBuilder.valid(2)
        b.lines[1][10] = 0xFF
        #expect(try verifyBytes(b.bytes).problem?.kind == .format(.encoding))
    }

    @Test func expectHeadMatchAndMismatch() throws {
        let b = try ChainBuilder.valid(5)
        let head3 = Head(seq: 3, sha256: SHA256.hash(b.lines[2]))
        #expect(try verifyBytes(b.bytes, expectHead: head3).isOK)
        #expect(try verifyBytes(b.bytes, expectHead: Head(seq: 5, sha256: SHA256.hash(b.lines[4]))).isOK)

        let wrong = Head(seq: 3, sha256: SHA256.hash(b.lines[1]))
        let problem = try #require(try verifyBytes(b.bytes, expectHead: wrong).problem)
        #expect(problem.line == 3 && problem.kind == .headMismatch)
        #expect(problem.description.hasPrefix("line 3: head_mismatch: line 3 hashes to \(head3.sha256.hex), not the expected"))

        // The last line edited: nothing else can notice, the kept head does.
        var edited = b
        edited.lines[4] = Array(String(decoding: b.lines[4], as: UTF8.self).replacingOccurrences(of: "\"choice\":1", with: "\"choice\":2").utf8)
        #expect(try verifyBytes(edited.bytes).isOK)
        let kept = Head(seq: 5, sha256: SHA256.hash(b.lines[4]))
        #expect(try verifyBytes(edited.bytes, expectHead: kept).problem?.description.hasPrefix("line 5: head_mismatch: ") == true)

        let beyond = try #require(try verifyBytes(b.bytes, expectHead: Head(seq: 9, sha256: head3.sha256)).problem)
        #expect(beyond.line == 9 && beyond.kind == .headMismatch)
        #expect(beyond.detail.contains("only 5 lines"))
    }

    @Test func headParsing() {
        let hex = String(repeating: "ab", count: 32)
        #expect(Head(parsing: "12:\(hex)") == Head(seq: 12, sha256: SHA256.Digest(hex: hex)!))
        #expect(Head(parsing: "12:\(hex)")?.description == "12:\(hex)")
        for bad in ["", "12", ":\(hex)", "0:\(hex)", "-1:\(hex)", "+1:\(hex)", "1:\(hex.dropLast())", "1:\(hex):", "x:\(hex)"] {
            #expect(Head(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func missingFileAndDirectoryAreErrorsNotReports() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let missing = #expect(throws: LedgerError.self) { try verify(path: dir.file("nope.log")) }
        #expect(missing?.code == .notFound)
        #expect(missing?.description.hasPrefix(dir.file("nope.log")) == true)
        let directory = #expect(throws: LedgerError.self) { try verify(path: dir.path) }
        #expect(directory?.code == .isDirectory)
    }
}
