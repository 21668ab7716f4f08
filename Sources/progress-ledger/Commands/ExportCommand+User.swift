import Events
import Ledger
import Projections

/// `export --user U [--state]`: a learner's own lines, verified first, and their state.
extension ExportCommand {
    static func runUser(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let user = try args.required(Self.user)
        let path = try LogInput.existingLearnerLog(try args.onePositional("LOG"), user: user)
        let lines: LogReader.UserLines
        do { lines = try LogReader(path: path).lines(of: user) } catch { throw CLIError.failure(error.description) }
        for warning in lines.summary.warnings { io.error("\(path): warning: \(warning)") }
        if lines.count == 0 { noEvents(user, in: path, io) }
        var bytes = lines.bytes
        if args[Self.state] {
            var projector = LearnerProjector(options: StateOptions(user: user))
            for record in lines.records { projector.apply(record) }
            bytes += Array(#"{"state":"#.utf8) + projector.state().jsonBytes + [UInt8(ascii: "}"), 0x0A]
        }
        try OutputFile.write(bytes, to: args[Self.out], io)
        return ExitCode.ok
    }
}
