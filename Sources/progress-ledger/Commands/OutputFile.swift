import Ledger
import Projections
import Rendering

/// Writes a command's output file (a report, the demo's page) through the
/// Ledger's `SmallFile.write`: whole or not at all (a temporary file beside it,
/// renamed over it), mode 0600, never through a symlink, never over a log.
enum OutputFile {
    /// Writes `bytes` to `path`; a failure is a `CLIError.failure` naming the path.
    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        do {
            try SmallFile.write(bytes, to: path)
        } catch {
            throw .failure(error.description)
        }
    }
}

extension OutputFile {
    /// Writes `bytes` to `path` when given, else to stdout.
    static func write(_ bytes: [UInt8], to path: String?, _ io: Terminal) throws(CLIError) {
        if let path { try write(bytes, to: path) } else { io.write(bytes: bytes) }
    }

    /// Hands `produce` a writer for output too large to hold (`export`'s
    /// lines): to `path`, written whole as ``write(_:to:)`` writes (nothing
    /// is written when `produce` throws), else to stdout as it comes.
    static func stream(to path: String?, _ io: Terminal,
                       _ produce: (_ emit: (UnsafeRawBufferPointer) throws(LedgerError) -> Void) throws(LedgerError) -> Void) throws(CLIError) {
        do {
            if let path { try SmallFile.write(to: path, contents: produce) } else { try produce { raw in io.write(raw: raw) } }
        } catch {
            throw .failure(error.description)
        }
    }
}

/// What `report` and `items` print, in the four formats both take.
protocol TableOutput {
    var json: [UInt8] { get }
    var csv: String { get }
    var html: String { get }
    var text: String { get }
}

extension Report: TableOutput {}
extension ItemAnalysis: TableOutput {}

/// What `report` and `items` print.
enum TableFormat: String, OutputFormat { case text, json, csv, html }

/// What `audit`, `explain` and `leaderboard` print: lines for a person, or JSON.
enum TextOrJSON: String, OutputFormat { case text, json }

extension OutputOptions<TableFormat> {
    /// `--format text|json|csv|html` (text by default), `--json` and `--out FILE`.
    init(tableHelp help: String) { self.init(help: help, default: .text) }

    /// Writes `output` in `format` (JSON with a final LF) to `--out` when given, else to stdout.
    func write(_ output: some TableOutput, as format: TableFormat, _ args: ParsedArguments, _ io: Terminal) throws(CLIError) {
        let bytes: [UInt8]
        switch format {
        case .json: bytes = output.json + [0x0A]
        case .csv: bytes = Array(output.csv.utf8)
        case .html: bytes = Array(output.html.utf8)
        case .text: bytes = Array(output.text.utf8)
        }
        try OutputFile.write(bytes, to: args[out], io)
    }
}

extension OutputOptions<TextOrJSON> {
    /// Writes `json` (with a final LF) or `text`, as `format` says, to `--out` when given, else to stdout.
    func write(json: @autoclosure () -> [UInt8], text: @autoclosure () -> String, as format: TextOrJSON,
               _ args: ParsedArguments, _ io: Terminal) throws(CLIError) {
        let bytes: [UInt8]
        switch format {
        case .json: bytes = json() + [0x0A]
        case .text: bytes = Array(text().utf8)
        }
        try OutputFile.write(bytes, to: args[out], io)
    }
}

/// What a command prints as it goes (`audit`'s lines): to stdout at once, or,
/// with `--out FILE`, gathered and written whole by ``finish()``.
final class DataOutput {
    private let path: String?
    private let io: Terminal
    private var gathered: [UInt8] = []

    /// Output to `path` (`--out`), else to stdout.
    init(_ path: String?, _ io: Terminal) { (self.path, self.io) = (path, io) }

    /// Writes bytes.
    func write(_ bytes: [UInt8]) {
        if path == nil { io.write(bytes: bytes) } else { gathered += bytes }
    }

    /// Writes text.
    func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes a line of text.
    func line(_ text: String = "") { write(text + "\n") }

    /// Writes the file, when there is one.
    func finish() throws(CLIError) {
        if let path { try OutputFile.write(gathered, to: path) }
    }
}
