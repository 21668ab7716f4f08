import Ledger
import Projections

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
enum TableFormat: String, OutputFormat { case json, csv, text, html }

extension OutputFile {
    /// `--format json|csv|text|html`, which these commands require.
    static func tableFormat(help: String) -> FormatOption<TableFormat> { FormatOption(help: help, default: nil) }

    /// Writes `output` in `format` (JSON with a final LF) to `--out` when given, else to stdout.
    static func write(_ output: some TableOutput, as format: TableFormat, _ args: ParsedArguments, _ io: Terminal) throws(CLIError) {
        let bytes: [UInt8]
        switch format {
        case .json: bytes = output.json + [0x0A]
        case .csv: bytes = Array(output.csv.utf8)
        case .html: bytes = Array(output.html.utf8)
        case .text: bytes = Array(output.text.utf8)
        }
        try write(bytes, to: args[Common.out], io)
    }
}
