import Events
import Interop
import Ledger

extension ExportCommand {
    /// `--format xapi`: the statements of docs/xapi.md, written only once the
    /// whole log has been read and checked.
    static func runXAPI(_ path: String, _ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let options: XAPIOptions
        do {
            options = try XAPIOptions(homepage: args[Self.homepage] ?? XAPIOptions.defaultHomepage,
                                      activityBase: args[Self.activityBase] ?? XAPIOptions.defaultActivityBase)
        } catch {
            throw CLIError.usage(error.description)
        }
        let user = args[Self.user]
        var exporter = XAPIExporter(options: options)
        var out: [UInt8] = []
        // A ledger directory: the learner's log with --user, else every learner log.
        let logs = try user.map { [try LogInput.existingLearnerLog(path, user: $0)] } ?? LogInput.logs(path)
        do {
            for log in logs {
                _ = try LogInput.read(log, io, quiet: args[Common.quiet], user: user) { record in
                    if let line = exporter.statement(for: record) { out.append(contentsOf: line) }
                }
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        io.write(bytes: out)
        return ExitCode.ok
    }
}
