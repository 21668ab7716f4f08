#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemRead = Glibc.read
#elseif canImport(Musl)
private let systemWrite = Musl.write
private let systemRead = Musl.read
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
private let systemRead = Darwin.read
#endif

/// The tool's standard streams: buffered stdout, unbuffered stderr, stdin.
///
/// A write to stdout that fails (a closed pipe, a full disk, a closed
/// descriptor) is kept in ``outputFailure``, and later output is dropped:
/// the tool then exits 1 saying so (``ProgressLedgerCLI/run(_:)``).
final class Terminal {
    private var buffer: [UInt8] = []
    /// Why stdout could not be written (its errno's text), once it could not.
    private(set) var outputFailure: String?

    init() { buffer.reserveCapacity(1 << 16) }

    /// Whether stderr is a terminal (progress is shown only then).
    var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// Writes text to stdout (buffered; flushed at exit and when large).
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes bytes to stdout.
    func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a line to stdout.
    func line(_ text: String = "") { write(text + "\n") }

    /// Writes a line to stderr at once.
    func error(_ text: String) {
        flush()
        Terminal.writeAll(2, Array((text + "\n").utf8))
    }

    /// Writes text to stderr at once, without a newline (for progress lines).
    func status(_ text: String) {
        Terminal.writeAll(2, Array(text.utf8))
    }

    /// Flushes stdout.
    func flush() {
        guard !buffer.isEmpty else { return }
        if outputFailure == nil, let code = Terminal.writeAll(1, buffer) {
            outputFailure = String(cString: strerror(code))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads all of stdin.
    func readStandardInput() -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(0, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: chunk[0..<n]); continue }
            if n < 0, errno == EINTR { continue }
            break
        }
        return data
    }

    /// Writes every byte to `fd`; returns the errno of a write that failed (EIO for one that wrote nothing).
    @discardableResult
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n > 0 { offset += n } else if n < 0, errno == EINTR { continue } else { return n < 0 ? errno : EIO }
            }
            return nil
        }
    }
}
