import Foundation

/// Writes a command's output file (a report, the demo's page): whole or not
/// at all, through a temporary file renamed over the target.
enum OutputFile {
    /// Writes `bytes` to `path`; a failure is a `CLIError.failure` naming the path.
    static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .failure("\(path): cannot write the file: \(error.localizedDescription)")
        }
    }
}
