import Events
import Interop
import Ledger

extension ExportCommand {
    /// `--format xapi`: the statements of docs/xapi.md, written only once the
    /// whole log has been read and checked.
    static func runXAPI(_ path: String, _ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let options: XAPIOptions
        do {
            options = try XAPIOptions(homepage: args[Self.homepage], activityBase: args[Self.activityBase])
        } catch {
            throw CLIError.usage(error.description)
        }
        let user = args[Self.user]
        var exporter = XAPIExporter(options: options)
        var out: [UInt8] = []
        var events = 0
        // A ledger directory: the learner's log with --user, else every learner log.
        try LogInput.readEvery(path, io, quiet: args[Common.quiet], user: user) { record in
            events += 1
            if let line = exporter.statement(for: record) { out.append(contentsOf: line) }
        }
        if let user, events == 0 { noEvents(user, in: path, io) }
        try OutputFile.write(out, to: args[Self.out], io)
        return ExitCode.ok
    }
}
