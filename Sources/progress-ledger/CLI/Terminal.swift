import Ledger

/// The tool's standard streams: buffered stdout, unbuffered stderr, stdin,
/// written and read through the Ledger's system seam (EINTR retried, short
/// writes looped).
///
/// A write to stdout that fails (a full disk, a closed descriptor) is kept in
/// ``outputFailure``, and later output is dropped: the tool then exits 1
/// saying so (``ProgressLedgerCLI/run(_:)``). A pipe whose reader has gone
/// (EPIPE: `export LOG | head -4`) ends the tool at once, exit 0, nothing on
/// stderr, as Unix tools stop on SIGPIPE: the reader took what it wanted.
/// Whatever the command wrote to a log before is whole (a batch is written
/// and fsync'd before its lines are printed).
final class Terminal {
    private var buffer: [UInt8] = []
    /// Why stdout could not be written (its errno's text), once it could not.
    private(set) var outputFailure: String?

    init() { buffer.reserveCapacity(1 << 16) }

    /// Whether stderr is a terminal (progress is shown only then).
    var stderrIsTerminal: Bool { System.isTerminal(2) }

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

    /// Writes the bytes of `raw` to stdout.
    func write(raw: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: raw)
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
    func status(_ text: String) { Terminal.writeAll(2, Array(text.utf8)) }

    /// Flushes stdout.
    func flush() {
        guard !buffer.isEmpty else { return }
        if outputFailure == nil, let failure = Terminal.writeAll(1, buffer) {
            if failure.errno == .brokenPipe { System.exit(ExitCode.ok) }
            outputFailure = System.errorText(failure.errno)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads all of stdin; a read that fails is a failure naming stdin.
    func readStandardInput() throws(CLIError) -> [UInt8] {
        do { return try System().readAll(0) } catch { throw .failure("stdin: cannot be read: \(error)") }
    }

    /// Writes every byte to `fd`; returns the call that failed, if one did.
    @discardableResult
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> SystemCallError? {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(PartialWriteError) in try System().writeAll(fd, raw) } }
        if case .failure(let failure) = result { return failure.cause }
        return nil
    }
}
