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

/// A file whose whole content is replaced many times quickly (pwrite + ftruncate
/// on one descriptor), for tests that verify thousands of variants of a log.
final class ScratchFile {
    let path: String
    private let fd: CInt

    init(_ path: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    deinit { close(fd) }

    /// Makes the file hold exactly `bytes`.
    func set(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, ftruncate(fd, off_t(bytes.count)) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}

/// Fast byte searches for tests that look at many variants of a log (`memchr`,
/// since generic collection code is slow in debug builds).
enum Bytes {
    /// The index of the first `byte` at or after `from`, or nil.
    static func index(of byte: UInt8, in bytes: [UInt8], from: Int = 0) -> Int? {
        guard from < bytes.count else { return nil }
        return bytes.withUnsafeBytes { buffer -> Int? in
            guard let base = buffer.baseAddress, let hit = memchr(base + from, CInt(byte), buffer.count - from) else { return nil }
            return UnsafeRawPointer(hit) - base
        }
    }

    /// The offsets of every LF.
    static func lineFeeds(_ bytes: [UInt8]) -> [Int] {
        var out: [Int] = []
        var from = 0
        while let lf = index(of: 0x0A, in: bytes, from: from) { out.append(lf); from = lf + 1 }
        return out
    }

    /// The complete lines (without LF) and the offset where the bytes after the last LF start.
    static func lines(_ bytes: [UInt8]) -> (lines: [[UInt8]], tailOffset: Int) {
        var out: [[UInt8]] = []
        var start = 0
        for lf in lineFeeds(bytes) { out.append(Array(bytes[start..<lf])); start = lf + 1 }
        return (out, start)
    }
}

/// A child process run to completion with its peak memory: posix_spawn, then
/// wait4 for its own rusage (ru_maxrss, KiB on Linux).
struct MeasuredRun {
    var exitCode: Int32?
    /// The signal that killed it, if one did (a crash: SIGSEGV, SIGILL for a Swift trap, SIGABRT).
    var signal: Int32?
    var stdout: String
    var stderr: String
    /// Peak resident set size in KiB.
    var maxRSSKiB: Int
    var seconds: Double

    var maxRSSMiB: Double { Double(maxRSSKiB) / 1024 }

    static func run(_ program: String, _ arguments: [String]) throws -> MeasuredRun {
        let dir = try TempDir("measured")
        defer { dir.cleanup() }
        let outPath = dir.file("stdout"), errPath = dir.file("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid = pid_t()
        let started = Date()
        let rc = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard rc == 0 else { throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: program]) }
        var status: CInt = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(started)
        let termination = status & 0x7F
        return MeasuredRun(exitCode: termination == 0 ? (status >> 8) & 0xFF : nil,
                           signal: termination == 0 ? nil : termination,
                           stdout: try Files.text(outPath), stderr: try Files.text(errPath),
                           maxRSSKiB: Int(usage.ru_maxrss), seconds: seconds)
    }
}
