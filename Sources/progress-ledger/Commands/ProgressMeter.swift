import Ledger

/// Shows how far a long read has got on stderr — bytes, percent and rate —
/// when stderr is a terminal and `--quiet` was not given; otherwise nothing.
///
/// Nothing is drawn for reads that finish within 300 ms, and the line is
/// redrawn at most ten times a second, then erased when the read ends.
final class ProgressMeter {
    private let io: Terminal
    private var label: String
    /// Whether it draws at all (stderr a terminal, no `--quiet`).
    let enabled: Bool
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var nextCheck = 0
    /// How long a read must have lasted before the line appears.
    private let delay: Duration

    /// A meter for reading `label`; draws only when `enabled`.
    init(_ io: Terminal, label: String, enabled: Bool) {
        self.io = io
        self.label = label
        self.enabled = enabled
        start = clock.now
        delay = ProgressMeter.delay
    }

    /// 300 ms, or `PROGRESS_LEDGER_PROGRESS_AFTER_MS` milliseconds (the tests use 0).
    static var delay: Duration {
        guard let text = System.environment("PROGRESS_LEDGER_PROGRESS_AFTER_MS"),
              let ms = Int(text), ms >= 0 else { return .milliseconds(300) }
        return .milliseconds(ms)
    }

    /// A meter for a command's reads: on when stderr is a terminal, unless `quiet`.
    convenience init(_ io: Terminal, label: String, quiet: Bool) {
        self.init(io, label: label, enabled: !quiet && io.stderrIsTerminal)
    }

    /// Notes that `bytes` of `total` have been read.
    func update(_ bytes: Int, _ total: Int) {
        guard enabled, bytes >= nextCheck else { return }
        nextCheck = bytes + (1 << 18)
        let now = clock.now
        let elapsed = now - start
        guard elapsed >= delay else { return }
        if let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        io.status("\r\u{1B}[K" + ProgressMeter.line(label: label, bytes: bytes, total: total, seconds: elapsed.seconds))
    }

    /// Notes that `bytes` of `total` of the log at `path` have been read (reads
    /// of several logs in turn): a new line, timed from now, when the path changes.
    func update(_ path: String, _ bytes: Int, _ total: Int) {
        guard enabled else { return }
        if path != label { finish(); label = path; start = clock.now; nextCheck = 0 }
        update(bytes, total)
    }

    /// Erases the progress line, if one was drawn.
    func finish() {
        if lastDraw != nil { io.status("\r\u{1B}[K") }
        lastDraw = nil
    }

    /// `reading demo.log: 12.3 MB of 200.0 MB (6%), 85.1 MB/s`.
    static func line(label: String, bytes: Int, total: Int, seconds: Double) -> String {
        let percent = total > 0 ? 100 * bytes / total : 100
        let rate = seconds > 0 ? Double(bytes) / seconds : 0
        return "reading \(label): \(megabytes(Double(bytes))) of \(megabytes(Double(total))) (\(percent)%), "
            + "\(megabytes(rate))/s"
    }

    /// `12.3 MB` (1 MB = 1,000,000 bytes).
    static func megabytes(_ bytes: Double) -> String {
        let tenths = Int((bytes / 100_000).rounded())
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
