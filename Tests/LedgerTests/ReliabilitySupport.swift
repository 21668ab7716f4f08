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
