import Events
import Foundation
import Testing
@testable import Ledger

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the ledger does with paths it is given and data it is handed.
@Suite("Safety")
struct SafetyTests {
    /// Runs `body` on another thread and waits at most `seconds` for it: a hang is a failure, not a stuck test run.
    func finishes(within seconds: Double, _ label: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { body(); done.signal() }
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test func aFIFOIsRefusedByReadersWithoutBlocking() throws {
        let dir = try TempDir("safety")
        defer { dir.cleanup() }
        let fifo = dir.file("pipe.log")
        #expect(mkfifo(fifo, 0o600) == 0)
        // No process ever opens the FIFO for writing: an open that waits for one would never return.
        nonisolated(unsafe) var errors: [LedgerError?] = []
        let ok = finishes(within: 10, "verify") {
            errors.append(#expect(throws: LedgerError.self) { try verify(path: fifo) })
            errors.append(#expect(throws: LedgerError.self) { try LogReader(path: fifo).forEachLine { _ in } })
            errors.append(#expect(throws: LedgerError.self) { try LogReader(path: fifo).read { _ in } })
            errors.append(#expect(throws: LedgerError.self) { try LedgerWriter(path: fifo) })
        }
        #expect(ok, "reading a FIFO blocked")
        guard ok else { return }
        for e in errors {
            #expect(e?.code == .notRegularFile, "\(String(describing: e))")
            #expect(e?.description == "\(fifo): not_regular_file: is not a regular file (a FIFO, socket or device?)")
        }
    }

    @Test func aDeviceIsRefusedByReadersAndWriters() throws {
        for device in ["/dev/zero", "/dev/null"] {
            let read = #expect(throws: LedgerError.self) { try verify(path: device) }
            #expect(read?.code == .notRegularFile)
            let write = #expect(throws: LedgerError.self) { try LedgerWriter(path: device) }
            #expect(write?.code == .notRegularFile)
        }
    }
}
