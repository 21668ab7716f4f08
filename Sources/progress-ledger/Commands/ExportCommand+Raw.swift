import Ledger

/// `export --format jsonl`: the raw lines, byte for byte.
extension ExportCommand {
    static func runRaw(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let path = try args.onePositional("LOG")
        let after = args[Self.after]
        try OutputFile.stream(to: args[Self.out], io) { (emit) throws(LedgerError) in
            let lf: [UInt8] = [0x0A]
            try LogReader(path: path).rawLines(after: after) { (line) throws(LedgerError) in
                try emit(line)
                let result = lf.withUnsafeBytes { raw in Result { () throws(LedgerError) in try emit(raw) } }
                try result.get()
            }
        }
        return ExitCode.ok
    }
}
