import Events
import Foundation
import Ledger
import Simulation
import Testing

/// `progress-ledger state --snapshot FILE` on real logs: the output is always
/// the bytes of a run without `--snapshot`; a matching snapshot means only the
/// tail is read; anything else is ignored with one line saying why.
@Suite("state --snapshot")
struct StateSnapshotTests {
    static let user = "u-002"

    /// A demo log's lines, and a working log built from them in the same directory.
    struct Fixture {
        let dir: TemporaryDirectory
        let demo: String
        let lines: [[UInt8]]
        let log: String
        let snap: String

        init(users: Int = 6, days: Int = 12) throws {
            dir = try TemporaryDirectory()
            demo = try LogFixture.demo(in: dir, users: users, days: days)
            lines = Fixture.split(try Data(contentsOf: URL(fileURLWithPath: demo)))
            log = dir.path("learner.log")
            snap = dir.path("learner.snapshot")
        }

        static func split(_ data: Data) -> [[UInt8]] {
            data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
        }

        static func bytes(_ lines: some Sequence<[UInt8]>) -> [UInt8] { lines.flatMap { $0 + [0x0A] } }

        /// Writes `lines` into the working log in place (the same file: its inode is kept).
        func overwrite(_ lines: some Sequence<[UInt8]>) throws {
            if !FileManager.default.fileExists(atPath: log) {
                _ = FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let h = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try h.truncate(atOffset: 0)
            try h.write(contentsOf: Data(Fixture.bytes(lines)))
            try h.close()
        }

        /// Appends `lines` to the working log.
        func append(_ lines: some Sequence<[UInt8]>) throws {
            let h = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try h.seekToEnd()
            try h.write(contentsOf: Data(Fixture.bytes(lines)))
            try h.close()
        }

        /// `state` on the working log, with the snapshot.
        func warm(_ extra: [String] = []) throws -> CLIResult {
            try CLI.run(["state", log, "--user", StateSnapshotTests.user, "--snapshot", snap] + extra)
        }

        /// What `state` prints for these lines without a snapshot (a log of its own).
        func expected(_ lines: some Sequence<[UInt8]>, _ extra: [String] = []) throws -> CLIResult {
            let path = dir.path("expected-\(UUID().uuidString).log")
            try Data(Fixture.bytes(lines)).write(to: URL(fileURLWithPath: path))
            return try CLI.run(["state", path, "--user", StateSnapshotTests.user] + extra)
        }

        /// The line with its id's first character changed (still valid; the state does not read ids).
        static func renamed(_ line: [UInt8]) -> [UInt8] {
            var line = line
            let key = Array(#""id":""#.utf8)
            if let at = (0...(line.count - key.count)).first(where: { line[$0..<($0 + key.count)].elementsEqual(key) }) {
                let i = at + key.count
                line[i] = line[i] == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
            }
            return line
        }
    }

    /// Expects exactly one `snapshot ignored:` line on stderr with this text after the file name.
    func expectIgnored(_ r: CLIResult, _ f: Fixture, _ prefix: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let ignored = lines.filter { $0.hasPrefix("snapshot ignored: ") }
        #expect(ignored.count == 1, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(ignored.first?.hasPrefix("snapshot ignored: \(f.snap): \(prefix)") == true, "\(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test("appended: the first run saves, the next reads only the new lines; JSON and text are the same bytes")
    func appended() throws {
        let f = try Fixture()
        let cut = f.lines.count * 3 / 5
        try f.overwrite(f.lines[..<cut])
        let first = try f.warm(["--json"])
        #expect(first.status == 0)
        #expect(first.stderr == "snapshot ignored: \(f.snap): it does not exist yet\n")
        #expect(first.stdoutBytes == (try f.expected(f.lines[..<cut], ["--json"])).stdoutBytes)
        let kept = try Data(contentsOf: URL(fileURLWithPath: f.snap))

        try f.append(f.lines[cut...])
        for format in [["--json"], []] {
            let warm = try f.warm(format)
            #expect(warm.status == 0 && warm.stderr.isEmpty, "\(warm.stderr)")
            #expect(warm.stdoutBytes == (try f.expected(f.lines, format)).stdoutBytes)
        }

        // Proof that the lines before the snapshot's head are not read again:
        // break the chain at line 1 (a full read refuses the log) and start
        // again from the snapshot taken at `cut`.
        try kept.write(to: URL(fileURLWithPath: f.snap))
        try f.overwrite([Fixture.renamed(f.lines[0])] + f.lines[1...])
        let cold = try CLI.run(["state", f.log, "--user", Self.user, "--json"])
        #expect(cold.status == 1 && cold.stderr.contains("line 2: broken_chain: "), "\(cold.stderr)")
        let warm = try f.warm(["--json"])
        #expect(warm.status == 0 && warm.stderr.isEmpty, "\(warm.stderr)")
        #expect(warm.stdoutBytes == (try f.expected(f.lines, ["--json"])).stdoutBytes)
    }

    @Test("seeded demo logs: a snapshot at a random line, then the rest appended, prints the cold bytes",
          arguments: [7, 42, 1_234])
    func seededWarmEqualsCold(seed: Int) throws {
        let dir = try TemporaryDirectory()
        let demo = try LogFixture.demo(in: dir, users: 5, days: 10, seed: seed)
        let lines = Fixture.split(try Data(contentsOf: URL(fileURLWithPath: demo)))
        var rng = SplitMix64(seed: UInt64(seed))
        for round in 0..<2 {
            let user = "u-00\(Int.random(in: 1...5, using: &rng))"
            let cut = Int.random(in: 0...lines.count, using: &rng)
            let log = dir.path("warm-\(round).log"), snap = dir.path("warm-\(round).snapshot")
            try Data(Fixture.bytes(lines[..<cut])).write(to: URL(fileURLWithPath: log))
            let first = try CLI.run(["state", log, "--user", user, "--json", "--snapshot", snap])
            #expect(first.status == 0, "\(first.stderr)")
            let h = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try h.seekToEnd()
            try h.write(contentsOf: Data(Fixture.bytes(lines[cut...])))
            try h.close()
            let warm = try CLI.run(["state", log, "--user", user, "--json", "--snapshot", snap])
            let cold = try CLI.run(["state", demo, "--user", user, "--json"])
            #expect(warm.status == 0 && !warm.stderr.contains("snapshot ignored"), "seed \(seed), cut \(cut): \(warm.stderr)")
            #expect(warm.stdoutBytes == cold.stdoutBytes, "seed \(seed), user \(user), cut \(cut) of \(lines.count)")
        }
    }

    @Test("a truncated log: ignored, the truncated log's state printed, the snapshot saved again")
    func truncated() throws {
        let f = try Fixture()
        try f.overwrite(f.lines)
        _ = try f.warm()
        let cut = f.lines.count / 2
        try f.overwrite(f.lines[..<cut])
        let r = try f.warm(["--json"])
        #expect(r.status == 0)
        expectIgnored(r, f, "\(f.log) is \(Fixture.bytes(f.lines[..<cut]).count) bytes, shorter than the ")
        #expect(r.stdoutBytes == (try f.expected(f.lines[..<cut], ["--json"])).stdoutBytes)
        let again = try f.warm(["--json"])
        #expect(again.stderr.isEmpty && again.stdoutBytes == r.stdoutBytes)
    }

    @Test("an edited head line: ignored, the whole log read")
    func editedHead() throws {
        let f = try Fixture()
        let cut = f.lines.count / 3
        try f.overwrite(f.lines[..<cut])
        _ = try f.warm()
        var edited = Array(f.lines[..<cut])
        edited[cut - 1] = Fixture.renamed(edited[cut - 1])
        try f.overwrite(edited)
        let r = try f.warm(["--json"])
        #expect(r.status == 0)
        expectIgnored(r, f, "the line of \(f.log) that ends at byte ")
        #expect(r.stderr.contains("not to the snapshot's head \(cut):"))
        #expect(r.stdoutBytes == (try f.expected(edited, ["--json"])).stdoutBytes)
    }

    @Test("a damaged tail line: refused exactly as without the snapshot; the snapshot file is left as it was")
    func damagedTail() throws {
        let f = try Fixture()
        let cut = f.lines.count / 2
        try f.overwrite(f.lines[..<cut])
        _ = try f.warm()
        let kept = try Data(contentsOf: URL(fileURLWithPath: f.snap))
        var damaged = f.lines
        damaged[cut + 10] = Fixture.renamed(damaged[cut + 10])      // line cut+12's prev no longer matches
        try f.overwrite(damaged)
        let r = try f.warm(["--json"])
        let cold = try CLI.run(["state", f.log, "--user", Self.user, "--json"])
        #expect(r.status == 1 && cold.status == 1)
        #expect(r.stderr == cold.stderr && r.stderr.contains("line \(cut + 12): broken_chain: "), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.snap)) == kept)
    }

    @Test("a replaced log (the same bytes in a new file): ignored")
    func replaced() throws {
        let f = try Fixture()
        try f.overwrite(f.lines)
        _ = try f.warm()
        let copy = f.dir.path("copy.log")
        try Data(Fixture.bytes(f.lines)).write(to: URL(fileURLWithPath: copy))
        try FileManager.default.removeItem(atPath: f.log)
        try FileManager.default.moveItem(atPath: copy, toPath: f.log)
        let r = try f.warm(["--json"])
        #expect(r.status == 0)
        expectIgnored(r, f, "\(f.log) is not the file the snapshot was made from (it is device ")
        #expect(r.stdoutBytes == (try f.expected(f.lines, ["--json"])).stdoutBytes)
    }

    @Test("another user: ignored, and the snapshot then holds that user's lines")
    func otherUser() throws {
        let f = try Fixture()
        try f.overwrite(f.lines)
        _ = try f.warm()
        let args = ["state", f.log, "--snapshot", f.snap, "--json", "--user", "u-003"]
        let r = try CLI.run(args)
        #expect(r.status == 0)
        expectIgnored(r, f, "it was made for user u-002, not user u-003")
        #expect(r.stdoutBytes == (try CLI.run(["state", f.log, "--json", "--user", "u-003"])).stdoutBytes)
        let again = try CLI.run(args)
        #expect(again.stderr.isEmpty && again.stdoutBytes == r.stdoutBytes)
    }

    @Test("a snapshot holds lines, not a fold: --as-of and --streak-on use it, and print what a full read prints",
          arguments: [["--as-of", "400"], ["--streak-on", "any"], ["--as-of", "2025-10-10T12:00:00Z", "--streak-on", "any"]])
    func foldOptions(_ other: [String]) throws {
        let f = try Fixture()
        let cut = f.lines.count / 2
        try f.overwrite(f.lines[..<cut])
        _ = try f.warm()
        try f.append(f.lines[cut...])
        let r = try f.warm(other + ["--json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdoutBytes == (try f.expected(f.lines, other + ["--json"])).stdoutBytes)
    }

    @Test("options the fold never reads do not need a new snapshot")
    func outputOptions() throws {
        let f = try Fixture()
        let cut = f.lines.count / 2
        try f.overwrite(f.lines[..<cut])
        _ = try f.warm()
        try f.append(f.lines[cut...])
        let catalog = f.dir.path("catalog.json")
        try Data(#"{"inference":["lesson-1","passage-2"],"vocabulary":["lesson-3"]}"#.utf8).write(to: URL(fileURLWithPath: catalog))
        let output = ["--day", "2025-10-12", "--retry-limit", "3", "--days", "5", "--catalog", catalog, "--json"]
        let r = try f.warm(output)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        #expect(r.stdoutBytes == (try f.expected(f.lines, output)).stdoutBytes)
    }

    @Test("a damaged snapshot file, one of a newer format, a file that is no snapshot: ignored")
    func badFiles() throws {
        let f = try Fixture(users: 3, days: 6)
        try f.overwrite(f.lines)
        _ = try f.warm()
        let expected = try f.expected(f.lines, ["--json"]).stdoutBytes
        var good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: f.snap)))

        var flipped = good
        flipped[flipped.count / 2] ^= 0x40
        try Data(flipped).write(to: URL(fileURLWithPath: f.snap))
        var r = try f.warm(["--json"])
        expectIgnored(r, f, "it is damaged: its checksum does not match")
        #expect(r.status == 0 && r.stdoutBytes == expected)

        good = [UInt8](try Data(contentsOf: URL(fileURLWithPath: f.snap)))   // saved again by that run
        var newer = Array(good.dropLast(8))
        newer[8] = 3
        newer += withUnsafeBytes(of: Self.xxh64(newer).littleEndian, Array.init)
        try Data(newer).write(to: URL(fileURLWithPath: f.snap))
        r = try f.warm(["--json"])
        expectIgnored(r, f, "it is in snapshot format 3, and this version reads only format 2")
        #expect(r.status == 0 && r.stdoutBytes == expected)

        let notes = Data("my notes\n".utf8)
        try notes.write(to: URL(fileURLWithPath: f.snap))
        r = try f.warm(["--json"])
        expectIgnored(r, f, "it is not a snapshot file")
        #expect(r.stderr.contains("progress-ledger state: warning: the snapshot was not saved: \(f.snap): permission: exists and is not a snapshot"))
        #expect(r.status == 0 && r.stdoutBytes == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: f.snap)) == notes)
    }

    @Test("a new line repeating an earlier id: the snapshot is not trusted, and the full read refuses the log as without it")
    func repeatedID() throws {
        let f = try Fixture(users: 3, days: 6)
        try f.overwrite(f.lines)
        _ = try f.warm()
        guard case .event(let last) = try LineCodec.decodeRecord(f.lines[f.lines.count - 1]),
              case .event(let third) = try LineCodec.decodeRecord(f.lines[2]) else {
            Issue.record("the demo log's lines are not v1 events")
            return
        }
        var copy = last
        copy.seq += 1
        copy.id = third.id
        copy.prev = SHA256.hash(f.lines[f.lines.count - 1]).hex
        try f.append([LineCodec.encode(copy)])
        let r = try f.warm(["--json"])
        let cold = try CLI.run(["state", f.log, "--user", Self.user, "--json"])
        #expect(r.status == 1 && cold.status == 1)
        #expect(r.stderr == cold.stderr && cold.stderr.contains("line \(f.lines.count + 1): duplicate_id: "), "\(r.stderr)")
    }

    @Test("--snapshot naming the log itself is a usage error; the log is untouched")
    func snapshotIsTheLog() throws {
        let f = try Fixture(users: 2, days: 3)
        try f.overwrite(f.lines)
        let r = try CLI.run(["state", f.log, "--user", Self.user, "--snapshot", f.log])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--snapshot names the log itself"))
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: f.log))) == Fixture.bytes(f.lines))
    }

    @Test("progress on a terminal while reading, as report and audit show it; none with --quiet")
    func progress() throws {
        let dir = try TemporaryDirectory()
        let log = try LogFixture.demo(in: dir, users: 10, days: 8)
        let args = [CLI.tool.path, "state", log, "--user", Self.user]
        let shown = try CLI.python(ReportProgressTests.underTerminal, args)
        #expect(shown.status == 0, "\(shown.stdout)")
        #expect(shown.stdout.contains("reading \(log): ") && shown.stdout.contains(" MB/s"), "\(shown.stdout.suffix(300))")
        let quiet = try CLI.python(ReportProgressTests.underTerminal, args + ["--quiet"])
        #expect(quiet.status == 0 && !quiet.stdout.contains("reading \(log): "))
        let snapshot = try CLI.python(ReportProgressTests.underTerminal, args + ["--snapshot", dir.path("s.snap")])
        #expect(snapshot.status == 0 && snapshot.stdout.contains("reading \(log): "))
    }

    /// XXH64 (seed 0), to forge a snapshot with a valid checksum (the format is documented in docs/operations.md).
    static func xxh64(_ bytes: [UInt8]) -> UInt64 {
        let p1: UInt64 = 11_400_714_785_074_694_791, p2: UInt64 = 14_029_467_366_897_019_727
        let p3: UInt64 = 1_609_587_929_392_839_161, p4: UInt64 = 9_650_029_242_287_828_579
        let p5: UInt64 = 2_870_177_450_012_600_261
        func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
        func word(_ i: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[i + $1]) << UInt64(8 * $1) } }
        func round(_ acc: UInt64, _ input: UInt64) -> UInt64 { rotl(acc &+ input &* p2, 31) &* p1 }
        var i = 0, h: UInt64
        if bytes.count >= 32 {
            var v = [p1 &+ p2, p2, 0, 0 &- p1]
            while i + 32 <= bytes.count {
                for k in 0..<4 { v[k] = round(v[k], word(i + 8 * k)) }
                i += 32
            }
            h = rotl(v[0], 1) &+ rotl(v[1], 7) &+ rotl(v[2], 12) &+ rotl(v[3], 18)
            for k in 0..<4 { h = (h ^ round(0, v[k])) &* p1 &+ p4 }
        } else {
            h = p5
        }
        h &+= UInt64(bytes.count)
        while i + 8 <= bytes.count { h ^= round(0, word(i)); h = rotl(h, 27) &* p1 &+ p4; i += 8 }
        if i + 4 <= bytes.count {
            h ^= ((0..<4).reduce(UInt64(0)) { $0 | UInt64(bytes[i + $1]) << UInt64(8 * $1) }) &* p1
            h = rotl(h, 23) &* p2 &+ p3
            i += 4
        }
        while i < bytes.count { h ^= UInt64(bytes[i]) &* p5; h = rotl(h, 11) &* p1; i += 1 }
        h ^= h >> 33; h &*= p2; h ^= h >> 29; h &*= p3; h ^= h >> 32
        return h
    }
}
