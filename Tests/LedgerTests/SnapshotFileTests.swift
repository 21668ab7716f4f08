import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// The snapshot file: saved atomically, read back whole, and refused when it
/// is anything but an undamaged snapshot of this format and key.
@Suite("Snapshot files")
struct SnapshotFileTests {
    /// A snapshot of a real 9-line log, holding its lines.
    func sample(_ dir: TempDir) throws -> Snapshot {
        let log = dir.file("a.log")
        try Files.write(log, try ChainBuilder.valid(9).bytes)
        let read = try LogReader(path: log).scanWhole(.init(), tracking: true) { _ in }
        return Snapshot(resumePoint: read.resumePoint, key: Snapshot.key(user: "u-1"), lines: read.keptLines)
    }

    /// `n` bytes or more of valid lines (each decodes by itself).
    func lines(atLeast n: Int) throws -> [UInt8] {
        let chain = try ChainBuilder.valid(9).bytes
        return Array(repeating: chain, count: n / chain.count + 1).flatMap { $0 }
    }

    func load(_ path: String, key: String = Snapshot.key(user: "u-1")) -> Result<Snapshot, SnapshotRejection> {
        Result { () throws(SnapshotRejection) -> Snapshot in try Snapshot.load(from: path, key: key) }
    }

    func rejection(_ result: Result<Snapshot, SnapshotRejection>) -> SnapshotRejection? {
        if case .failure(let r) = result { return r }
        return nil
    }

    @Test("save then load gives the same snapshot, its lines decoded as the log's; the file is 0600 and nothing else is left beside it")
    func roundTrip() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        let snapshot = try sample(dir)
        let path = dir.file("state.snap")
        try snapshot.save(to: path)
        #expect(try load(path).get() == snapshot)
        var logRecords: [Record] = []
        try LogReader(path: dir.file("a.log")).read { logRecords.append($0) }
        #expect(try load(path).get().records == logRecords)
        #expect(try Files.permissions(path) == 0o600)
        #expect(try dir.files() == ["a.log", "state.snap"])
        // Saving again replaces it.
        var next = snapshot
        next.lines = Array(snapshot.lines[...snapshot.lines.firstIndex(of: 0x0A)!])
        try next.save(to: path)
        #expect(try load(path).get() == next)
        #expect(try dir.files() == ["a.log", "state.snap"])
    }

    @Test("missing, a directory, another key: refused with their reasons")
    func missingAndOtherKey() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        #expect(rejection(load(dir.file("none.snap"))) == SnapshotRejection(.missing, "it does not exist yet"))
        #expect(rejection(load(dir.path)) == SnapshotRejection(.unreadable, "it cannot be read: is a directory, not a file"))
        let path = dir.file("state.snap")
        try sample(dir).save(to: path)
        #expect(rejection(load(path, key: Snapshot.key(user: "u-2")))
                == SnapshotRejection(.otherFold, "it was made for user u-1, not user u-2"))
        #expect(rejection(load(path, key: Snapshot.key(user: nil)))
                == SnapshotRejection(.otherFold, "it was made for user u-1, not every user"))
        // Keys compare exactly: a canonically equivalent user is another key.
        try Snapshot(resumePoint: try sample(dir).resumePoint, key: Snapshot.key(user: "\u{E9}"), lines: []).save(to: path)
        #expect(rejection(load(path, key: Snapshot.key(user: "e\u{301}")))?.reason == .otherFold)
    }

    @Test("any changed byte, any truncation, extra bytes: garbled (the checksum), never read")
    func garbled() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        let path = dir.file("state.snap")
        try sample(dir).save(to: path)
        let good = try Files.bytes(path)
        var rng = SplitMix64(seed: 11)
        for _ in 0..<60 {
            var bad = good
            let at = Int.random(in: Snapshot.magic.count + 4..<bad.count, using: &rng)
            bad[at] ^= UInt8.random(in: 1...255, using: &rng)
            try Files.write(path, bad)
            #expect(rejection(load(path))?.reason == .garbled, "byte \(at) changed")
        }
        for n in [0, 5, 8, 11, 12, 20, good.count / 2, good.count - 1] {
            try Files.write(path, Array(good[..<n]))
            #expect(rejection(load(path))?.reason == .garbled, "cut to \(n) bytes")
        }
        try Files.write(path, good + [0])
        #expect(rejection(load(path)) == SnapshotRejection(.garbled, "it is damaged: its checksum does not match its \(good.count + 1) bytes (cut short, or changed)"))
        // A log given as a snapshot.
        #expect(rejection(load(dir.file("a.log"))) == SnapshotRejection(.garbled, "it is not a snapshot file (it does not start with the snapshot mark)"))
    }

    @Test("a snapshot of a newer (or older) format is refused as such, even with a valid checksum")
    func otherFormat() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        let path = dir.file("state.snap")
        let good = try sample(dir).encoded()
        for (version, reason) in [(3, SnapshotRejection.Reason.newerFormat), (1, .olderFormat)] {
            var bytes = Array(good.dropLast(8))
            bytes[8] = UInt8(version)
            bytes += withUnsafeBytes(of: XXH64.hash(bytes).littleEndian, Array.init)
            try Files.write(path, bytes)
            #expect(rejection(load(path)) == SnapshotRejection(reason, "it is in snapshot format \(version), and this version reads only format 2"))
        }
    }

    @Test("inconsistent fields with a valid checksum are refused: an id digest missing, a position that cannot be")
    func inconsistent() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        let path = dir.file("state.snap")
        var snapshot = try sample(dir)
        snapshot.resumePoint.ids = IDDigests(sorted: Array(snapshot.resumePoint.ids.sorted.dropLast()))
        try Files.write(path, snapshot.encoded())
        #expect(rejection(load(path)) == SnapshotRejection(.garbled, "it is damaged: it holds 8 id digests in 64 bytes for 9 lines"))
        snapshot = try sample(dir)
        snapshot.resumePoint.offset = 3
        try Files.write(path, snapshot.encoded())
        #expect(rejection(load(path))?.message == "it is damaged: its position is inconsistent (line 9 ending at byte 3)")
        // Lines that do not decode, or a last line without its LF.
        snapshot = try sample(dir)
        snapshot.lines += Array("not json\n".utf8)
        try Files.write(path, snapshot.encoded())
        #expect(rejection(load(path))?.message.hasPrefix("it is damaged: its line 10 does not decode (") == true)
        snapshot = try sample(dir)
        snapshot.lines.removeLast()
        try Files.write(path, snapshot.encoded())
        #expect(rejection(load(path)) == SnapshotRejection(.garbled, "it is damaged: its last line has no LF"))
    }

    @Test("save refuses to replace what is not a snapshot: the log, a symlink, a directory; an empty file is fine")
    func refusesToReplace() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        let snapshot = try sample(dir)
        let log = dir.file("a.log")
        let before = try Files.bytes(log)
        let error = #expect(throws: LedgerError.self) { try snapshot.save(to: log) }
        #expect(error?.code == .permission)
        #expect(error?.description == "\(log): permission: exists and is not a snapshot, so it is not replaced (give a new file name, or remove it)")
        #expect(try Files.bytes(log) == before)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.snap"), withDestinationPath: dir.file("target.snap"))
        #expect((#expect(throws: LedgerError.self) { try snapshot.save(to: dir.file("link.snap")) })?.code == .symlink)
        try FileManager.default.createDirectory(atPath: dir.file("d.snap"), withIntermediateDirectories: false)
        #expect((#expect(throws: LedgerError.self) { try snapshot.save(to: dir.file("d.snap")) })?.code == .isDirectory)
        try Files.write(dir.file("empty.snap"), [])
        try snapshot.save(to: dir.file("empty.snap"))
        #expect(try load(dir.file("empty.snap")).get() == snapshot)
        #expect(!(try dir.files()).contains { $0.contains(".tmp-") })
    }

    @Test("a failed write or rename leaves the old snapshot as it was and no new file behind",
          arguments: [(SystemCall.write, Errno.noSpace), (.rename, .ioError), (.open, .accessDenied)])
    func faults(call: SystemCall, errno: Errno) throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        let old = try sample(dir)
        let path = dir.file("state.snap")
        try old.save(to: path)
        var next = old
        next.lines = try lines(atLeast: 100_000)
        let faults = FaultInjector()
        // The open of the old snapshot (to check its mark) comes first: fail the second open, the new file's.
        faults.inject(.fail(errno), into: call, after: call == .open ? 1 : 0)
        let error = #expect(throws: LedgerError.self) { try next.save(to: path, system: System(faults: faults)) }
        #expect(error?.systemCall == SystemCallError(call: call.rawValue, errno: errno))
        #expect(try load(path).get() == old)
        #expect(try dir.files() == ["a.log", "state.snap"])
    }

    @Test("short writes and EINTR are handled: the snapshot is whole")
    func shortWritesAndInterrupts() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        var snapshot = try sample(dir)
        snapshot.lines = try lines(atLeast: 50_000)
        let faults = FaultInjector()
        faults.inject(.shortWrite(1000), into: .write, times: 5)
        faults.inject(.interrupt, into: .rename)
        try snapshot.save(to: dir.file("state.snap"), system: System(faults: faults))
        #expect(try load(dir.file("state.snap")).get() == snapshot)
        #expect(faults.injectedCount(.write) == 5 && faults.injectedCount(.rename) == 1)
    }

    @Test("a snapshot is a cache: saving it calls no fsync, and writes its digests in few large writes")
    func noFsyncFewWrites() throws {
        let dir = try TempDir("snapshot-file")
        defer { dir.cleanup() }
        // A snapshot of 2,000 lines, loaded back, then 1,000 more lines read after
        // it: the digests to write are the loaded ones with the new ones merged in,
        // which used to go out as two small writes per new digest.
        let log = dir.file("a.log")
        let chain = try ChainBuilder.valid(3000)
        try Files.write(log, chain.lines.prefix(2000).flatMap { $0 + [0x0A] })
        let key = "k"
        let first = try LogReader(path: log).scanWhole(.init(), tracking: true) { _ in }
        try Snapshot(resumePoint: first.resumePoint, key: key, lines: []).save(to: dir.file("first.snap"))
        let loaded = try load(dir.file("first.snap"), key: key).get()
        try Files.append(log, chain.lines.dropFirst(2000).flatMap { $0 + [0x0A] })
        let rest = try LogReader(path: log).scan(after: loaded.resumePoint, .init(), tracking: true) { _ in }.get()
        let next = Snapshot(resumePoint: rest.resumePoint, key: key, lines: try lines(atLeast: 3 << 20))
        let faults = FaultInjector()
        faults.inject(.fail(.ioError), into: .fsync, times: 100)
        faults.inject(.shortWrite(1 << 30), into: .write, times: 10_000)   // counts the writes, changes nothing
        let path = dir.file("next.snap")
        try next.save(to: path, system: System(faults: faults))
        #expect(faults.injectedCount(.fsync) == 0)
        let size = try Files.bytes(path).count
        #expect(faults.injectedCount(.write) <= size / AtomicFile.writeSize + 2)
        #expect(try load(path, key: key).get() == next)
        #expect(next.resumePoint.ids.count == 3000)
    }
}
