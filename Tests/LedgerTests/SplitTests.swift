import Events
import Foundation
import Testing
@testable import Ledger

/// `LedgerDirectory.split` at the library's level: the work files' buffer
/// does not change what is written, refusals leave nothing behind.
@Suite("split")
struct SplitTests {
    /// A log of `users` learners, `each` answers apiece, interleaved as a
    /// server's log is (learner k's j-th event at position j * users + k).
    static func log(users: Int, each: Int, in dir: TempDir) throws -> String {
        let path = dir.file("source.log")
        let writer = try LedgerWriter(path: path)
        defer { writer.close() }
        var events: [NewEvent] = []
        for j in 0..<each {
            for k in 0..<users { events.append(try Make.answer("e-\(k)-\(j)", user: "learner-\(k)", question: j + 1)) }
        }
        _ = try writer.append(events, durability: .deferred)
        try writer.sync()
        return path
    }

    /// Every file under `root`, by relative path, with its bytes.
    static func tree(_ root: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: root))
        for case let name as String in walker {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Files.bytes(root + "/" + name)
            }
        }
        return files
    }

    @Test("a small buffer (many flushes of the work files) writes the same directory as one flush")
    func bufferDoesNotMatter() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let source = try Self.log(users: 300, each: 12, in: dir)
        let small = try LedgerDirectory.split(log: source, into: dir.file("small.d"), buffer: 1 << 16)
        let large = try LedgerDirectory.split(log: source, into: dir.file("large.d"))
        #expect(small.logs == 300 && small.events == 3600 && large.logs == 300 && large.head == small.head)
        #expect(try Files.bytes(source).count > 8 << 16, "the source is many buffers long, so the small split flushed many times")
        let a = try Self.tree(dir.file("small.d")), b = try Self.tree(dir.file("large.d"))
        #expect(a == b)
        #expect(a.keys.filter { $0.hasSuffix(".log") }.count == 300)
        #expect(!a.keys.contains { $0.hasPrefix(SplitWork.folderName) }, "the work folder is removed")
        // Each learner log: its own answers, in source order, sealed from seq 1.
        for k in [0, 7, 299] {
            let learner = LedgerDirectory(path: dir.file("small.d"), sourceHead: nil).learnerPath(user: "learner-\(k)")
            var ids: [String] = [], seqs: [Int] = []
            try LogReader(path: learner).read { record in ids.append(record.id); seqs.append(record.seq) }
            #expect(ids == (0..<12).map { "e-\(k)-\($0)" })
            #expect(seqs == Array(1...12))
        }
    }

    @Test("a damaged source is refused, naming the file and line, and nothing is left at DIR")
    func damagedSource() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let source = try Self.log(users: 40, each: 10, in: dir)
        var bytes = try Files.bytes(source)
        // Line 300's choice 1 becomes 2: its hash no longer matches line 301's prev.
        var line = 1, k = 0
        while line < 300 { if bytes[k] == 0x0A { line += 1 }; k += 1 }
        let needle = Array(#""choice":1"#.utf8)
        while !bytes[k...].starts(with: needle) { k += 1 }
        bytes[k + needle.count - 1] = UInt8(ascii: "2")
        try Files.write(source, bytes)
        let out = dir.file("out.d")
        #expect {
            _ = try LedgerDirectory.split(log: source, into: out, buffer: 1 << 16)
        } throws: { error in
            guard let error = error as? LedgerError else { return false }
            return error.code == .damaged && error.path == source && error.message.contains("line 301")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a line of a newer format version is refused, naming it, and nothing is left at DIR")
    func newerVersionLine() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let source = try Self.log(users: 5, each: 4, in: dir)
        let head = try LogReader(path: source).verify().summary.head
        try Files.append(source, Array(#"{"v":3,"seq":21,"id":"n-1","prev":"\#(head.sha256.hex)","anything":{"new":[1]}}"#.utf8) + [0x0A])
        #expect(try LogReader(path: source).verify().problem == nil, "the source is a valid log")
        let out = dir.file("out.d")
        #expect {
            _ = try LedgerDirectory.split(log: source, into: out)
        } throws: { error in
            guard let error = error as? LedgerError else { return false }
            return error.code == .unusable && error.path == source && error.message.contains("line 21")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
