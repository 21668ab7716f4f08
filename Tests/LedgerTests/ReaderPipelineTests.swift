import Events
import Foundation
import Testing
@testable import Ledger

/// The reader's worker threads: many chunks, records in log order, the same
/// first problem wherever it is, and the per-user filter of `state`.
@Suite("Reader pipeline")
struct ReaderPipelineTests {
    /// A valid log of `n` events whose users cycle through `users`.
    static func log(_ n: Int, users: [String]) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var prev = Envelope.genesis
        for k in 1...n {
            let event = try LineCodec.decodeNewEvent(Array(
                #"{"at":"2025-10-21T08:15:00+03:00","user":"u","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"#.utf8))
            var sealed = event.sealed(seq: k, id: "e-\(k)", prev: prev)
            sealed.user = users[k % users.count]
            let line = LineCodec.encode(sealed)
            lines.append(line)
            prev = SHA256.hash(line).hex
        }
        return lines
    }

    static func write(_ lines: [[UInt8]], _ dir: TempDir) throws -> String {
        let path = dir.file("p.log")
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        return path
    }

    @Test("records come in log order across many chunks, as each line decodes alone")
    func order() throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        let lines = try Self.log(20_000, users: ["a", "b", "c"])
        let path = try Self.write(lines, dir)
        var seen: [Record] = []
        let summary = try LogReader(path: path).read { seen.append($0) }.summary
        #expect(summary.events == 20_000)
        #expect(seen == (try lines.map { try LineCodec.decodeRecord($0) }))
        #expect(summary.head.sha256 == SHA256.hash(lines[lines.count - 1]))
    }

    @Test("the first problem is found wherever it is, with the same message", arguments: [1, 4_095, 4_096, 4_097, 13_001, 20_000])
    func problemAnywhere(at line: Int) throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        var lines = try Self.log(20_000, users: ["a", "b"])
        lines[line - 1] = Array("{\"v\":1,".utf8)           // not JSON
        if line < lines.count { lines[line] = [] }           // and a blank line after it: never reported
        let path = try Self.write(lines, dir)
        let report = try verify(path: path)
        #expect(report.problem?.description.hasPrefix("line \(line): not_json: ") == true, "\(String(describing: report.problem))")
        #expect(report.events == line - 1)
        var count = 0
        #expect(throws: LedgerError.self) { try LogReader(path: path).read { _ in count += 1 } }
        #expect(count == line - 1)
    }

    @Test("read(.init(user:)) hands over that user's records only, byte for byte, and checks every line")
    func userFilter() throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        // "K" and "\u{212A}" (Kelvin), "é" precomposed and decomposed: equal as Strings, not as bytes.
        let users = ["K", "\u{212A}", "\u{E9}", "e\u{301}", "u-1"]
        var lines = try Self.log(9_000, users: users)
        let path = try Self.write(lines, dir)
        for user in users {
            var mine: [Record] = []
            let summary = try LogReader(path: path).read(.init(user: user)) { mine.append($0) }.summary
            var all: [Record] = []
            try LogReader(path: path).read { if $0.user.map({ Array($0.utf8) == Array(user.utf8) }) == true { all.append($0) } }
            #expect(mine == all)
            #expect(mine.count == 9_000 / users.count)
            #expect(summary.events == 9_000)
        }
        // A broken line of another user still stops the read, with verify's message.
        lines[7_000] = Array(#"{"v":1}"#.utf8)
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        var handed = 0
        do {
            try LogReader(path: path).read(.init(user: "u-1")) { _ in handed += 1 }
            Issue.record("a damaged log was read")
        } catch {
            #expect(error.description.contains("line 7001: invalid_envelope: seq: is required"), "\(error)")
        }
        #expect(handed == 7_000 / users.count)
    }

    @Test("a log under serialBytes is checked on the calling thread: the same records, the user's only, the same first problem as the threaded read",
          arguments: [nil, 1, 1_500, 3_000] as [Int?])
    func serialRead(brokenAt broken: Int?) throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        var small = try Self.log(3_000, users: ["a", "b", "c"])
        var large = try Self.log(20_000, users: ["a", "b", "c"])
        if let broken {
            small[broken - 1] = Array(#"{"v":1}"#.utf8)
            large[broken - 1] = Array(#"{"v":1}"#.utf8)
        }
        let smallPath = try Self.write(small, dir)
        let largePath = dir.file("large.log")
        try Files.write(largePath, large.flatMap { $0 + [0x0A] })
        #expect(try Files.bytes(smallPath).count < LogReader.serialBytes)
        #expect(try Files.bytes(largePath).count > LogReader.serialBytes)
        for options in [LogReader.Options(), LogReader.Options(user: "b")] {
            var serial: [Record] = []
            var threaded: [Record] = []
            var serialError: LedgerError? = nil
            var threadedError: LedgerError? = nil
            do { try LogReader(path: smallPath).read(options) { serial.append($0) } } catch { serialError = error }
            do { try LogReader(path: largePath).read(options) { threaded.append($0) } } catch { threadedError = error }
            // The same first problem, named the same way (the line number and the member; only the path differs).
            #expect(serialError?.problem?.line == broken)
            #expect(serialError?.problem?.description == threadedError?.problem?.description)
            if broken == nil {
                #expect(serial.count == (options.user == nil ? 3_000 : 1_000))
            }
            #expect(serial == Array(threaded.prefix(serial.count)))
        }
    }

    @Test("a newer-version line whose user cannot be read is handed to every user's read")
    func newerLines() throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        var lines = try Self.log(3, users: ["a"])
        let prev = SHA256.hash(lines[2]).hex
        lines.append(Array(#"{"v":3,"seq":4,"id":"n-1","user":7,"prev":"\#(prev)"}"#.utf8))
        let path = try Self.write(lines, dir)
        var seen: [Record] = []
        try LogReader(path: path).read(.init(user: "someone-else")) { seen.append($0) }
        #expect(seen.count == 1)
        if case .newer(let line)? = seen.first { #expect(line.user == nil && line.seq == 4) } else { Issue.record("\(seen)") }
    }

    @Test("owned records: each line decoded by itself, kept intact after the chunks they came from are reused",
          arguments: [nil, 1, 1_024, 1_025, 19_999] as [Int?])
    func ownedRecords(brokenAt broken: Int?) throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        var lines = try Self.log(20_000, users: ["a", "b", "c"])
        if let broken { lines[broken - 1] = Array(#"{"v":1}"#.utf8) }
        let path = try Self.write(lines, dir)
        var owned: [Record] = []
        var progress: [Int] = []
        let reader = LogReader(path: path)
        if let broken {
            let error = #expect(throws: LedgerError.self) { try reader.read { owned.append($0) } }
            #expect(error?.problem?.line == broken)
        } else {
            try reader.read(.init(progress: { done, _ in progress.append(done) })) { owned.append($0) }
            let size = try Files.bytes(path).count
            #expect(progress.count == 20_000 && progress == progress.sorted() && progress.last == size)
        }
        #expect(owned.count == (broken ?? 20_001) - 1)
        #expect(owned == (try lines[..<owned.count].map { try LineCodec.decodeRecord($0) }))
    }

    /// Reads `path` through the pipeline itself (small chunks, few in flight,
    /// the workers' blocks sent to `workers`), checking the chain as `verify`
    /// does: every record, and the first problem.
    static func pipelineRead(_ path: String, workers: DispatchQueue?) throws -> (records: [Record], problem: LineProblem?) {
        let reader = LogReader(path: path)
        var records: [Record] = []
        var problem: LineProblem? = nil
        try reader.withOpenLog { (fd, status) throws(LedgerError) in
            var pipeline = reader.pipeline(fd, keeping: RecordFilter.all)
            pipeline.chunkLines = 97
            pipeline.inFlight = 3
            pipeline.workers = workers
            var chain = ReadChain(ids: IDFingerprints(lines: reader.earlierLines(fd)))
            do throws(LedgerError) {
                _ = try pipeline.run(from: 0, to: status.size, firstLine: 1, { (line: borrowing CheckedLine) throws(LedgerError) in
                    if let p = try chain.accept(line) {
                        problem = p
                        throw LedgerError(.damaged, path: "", "stop")
                    }
                }, give: { records.append($0) })
            } catch {
                guard problem != nil else { throw error }
            }
        }
        return (records, problem)
    }

    @Test("each chunk is checked once, by a worker or by the reading thread: with the workers held back the reading thread checks them all; the same records and first problem either way",
          arguments: [(false, nil), (false, 7_777), (true, nil), (true, 7_777), (true, 1)] as [(Bool, Int?)])
    func readingThreadChecks(held: Bool, brokenAt broken: Int?) throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        var lines = try Self.log(20_000, users: ["a", "b", "c"])
        if let broken { lines[broken - 1] = Array("{\"v\":1,".utf8) }   // not JSON
        let path = try Self.write(lines, dir)
        // A queue that runs nothing during the read: no worker ever claims a
        // chunk. Resumed after it, its blocks find their chunks claimed.
        let workers = DispatchQueue(label: "held workers")
        if held { workers.suspend() }
        let read = try Self.pipelineRead(path, workers: held ? workers : nil)
        if held { workers.resume() }

        let expected = try verify(path: path)
        #expect(read.problem?.description == expected.problem?.description)
        #expect((read.problem?.description.hasPrefix("line \(broken ?? 0): not_json: ") ?? false) == (broken != nil))
        let valid = broken.map { $0 - 1 } ?? lines.count
        #expect(read.records == (try lines[..<valid].map { try LineCodec.decodeRecord($0) }))
    }

    /// Runs `change` once, before the reader's second `pread` (the first chunk read, the read under way).
    final class ChangeWhileRead: @unchecked Sendable {
        private var preads = 0
        private let change: () -> Void
        init(_ change: @escaping () -> Void) { self.change = change }
        func system() -> System {
            let faults = FaultInjector()
            faults.before(.pread) { [self] in
                preads += 1
                if preads == 2 { change() }
            }
            return System(faults: faults)
        }
    }

    @Test("a log growing while it is read: verify and the checked read stop at the size the read began with; the next read sees the rest and its torn tail")
    func growingWhileRead() throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        let lines = try Self.log(20_100, users: ["a", "b", "c"])
        let path = try Self.write(Array(lines[..<20_000]), dir)
        let torn = Array(lines[20_050][..<40])
        let grow = ChangeWhileRead { try? Files.append(path, lines[20_000..<20_050].flatMap { $0 + [0x0A] } + torn) }
        let reader = LogReader(path: path, chunkSize: 4096, system: grow.system())

        let report = try reader.verify()
        #expect(report.problem == nil && report.events == 20_000 && report.summary.tornTail == nil)
        #expect(report.summary.head.sha256 == SHA256.hash(lines[19_999]))
        var mine: [Record] = []
        let read = try reader.scan(after: nil, .init(user: "b"), tracking: true) { mine.append($0) }.get()
        #expect(read.linesRead == 20_050 && read.summary.tornTail == TornTail(line: 20_051, offset: read.resumePoint.offset, length: 40))
        #expect(mine == (try lines[..<20_050].map { try LineCodec.decodeRecord($0) }.filter { $0.user == "b" }))
        let after = try LogReader(path: path).verify()
        #expect(after.problem == nil && after.events == 20_050)
        #expect(after.summary.tornTail == TornTail(line: 20_051, offset: read.resumePoint.offset, length: 40))
    }

    @Test("a log cut short while it is read (mid-line): the read stops at what is there, the cut line a torn tail")
    func truncatedWhileRead() throws {
        let dir = try TempDir("pipeline")
        defer { dir.cleanup() }
        let lines = try Self.log(20_000, users: ["a", "b"])
        let path = try Self.write(lines, dir)
        // Cut 25 bytes into line 15,001, long after the first chunk.
        let kept = lines[..<15_000].reduce(0) { $0 + $1.count + 1 }
        let cut = ChangeWhileRead { _ = truncate(path, off_t(kept + 25)) }
        let report = try LogReader(path: path, chunkSize: 4096, system: cut.system()).verify()
        #expect(report.problem == nil && report.events == 15_000)
        #expect(report.summary.tornTail == TornTail(line: 15_001, offset: kept, length: 25))
        #expect(report.summary.head.sha256 == SHA256.hash(lines[14_999]))
    }
}
