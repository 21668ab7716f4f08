import Foundation
import Testing
@testable import Ledger

/// `SmallFile.write`, which the CLI uses for every output file: the failure
/// paths the CLI tests cannot reach (a full disk, a failed fsync or rename).
@Suite("SmallFile.write: whole or nothing")
struct SmallFileWriteTests {
    @Test("a failed open, write, fsync or rename leaves the old file as it was and no new file behind",
          arguments: [(SystemCall.open, Errno.accessDenied), (.write, .noSpace), (.fsync, .ioError), (.rename, .ioError)])
    func faults(call: SystemCall, errno: Errno) throws {
        let dir = try TempDir("small-file")
        defer { dir.cleanup() }
        let path = dir.file("report.json")
        try SmallFile.write(Array("old report\n".utf8), to: path)
        let faults = FaultInjector()
        // The old file's first bytes are read first (one open): fail the next one, the new file's.
        faults.inject(.fail(errno), into: call, after: call == .open ? 1 : 0)
        let error = #expect(throws: LedgerError.self) {
            try SmallFile.write(Array(repeating: 0x41, count: 200_000), to: path, system: System(faults: faults))
        }
        #expect(error?.systemCall == SystemCallError(call: call.rawValue, errno: errno))
        #expect(error?.path.hasPrefix(path) == true)  // the file, or the new one beside it
        #expect(faults.injectedCount(call) == 1)
        #expect(try Files.bytes(path) == Array("old report\n".utf8))
        #expect(try dir.files() == ["report.json"])
    }

    @Test("short writes and EINTR are looped: the file is whole, 0600")
    func shortWrites() throws {
        let dir = try TempDir("small-file")
        defer { dir.cleanup() }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let faults = FaultInjector()
        faults.inject(.shortWrite(777), into: .write, times: 4)
        faults.inject(.interrupt, into: .rename)
        try SmallFile.write(bytes, to: dir.file("page.html"), system: System(faults: faults))
        #expect(try Files.bytes(dir.file("page.html")) == bytes)
        #expect(faults.injectedCount(.write) == 4 && faults.injectedCount(.rename) == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: dir.file("page.html"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try dir.files() == ["page.html"])
    }

    @Test("a snapshot at the path is refused, an empty file replaced")
    func snapshotRefused() throws {
        let dir = try TempDir("small-file")
        defer { dir.cleanup() }
        try Files.write(dir.file("s.snap"), Snapshot.magic + [1, 2, 3])
        let error = #expect(throws: LedgerError.self) { try SmallFile.write([1], to: dir.file("s.snap")) }
        #expect(error?.code == .permission)
        #expect(error?.message == "is a snapshot, so it is not replaced (give another file name)")
        #expect(try Files.bytes(dir.file("s.snap")) == Snapshot.magic + [1, 2, 3])
        try Files.write(dir.file("empty"), [])
        try SmallFile.write([7, 8], to: dir.file("empty"))
        #expect(try Files.bytes(dir.file("empty")) == [7, 8])
    }
}
