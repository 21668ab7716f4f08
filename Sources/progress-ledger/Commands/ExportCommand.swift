/// `progress-ledger export LOG|DIR --format F ...`: option parsing and a
/// dispatch only; each format lives in its own file (`ExportCommand+Flat.swift`...).
///
/// Merge note: the sync issue owns this file (raw jsonl, --after, --user);
/// this branch adds only the `flat` case and its help lines.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "export a log or ledger directory (--format flat: analytics rows by day)"
    static let options: [OptionSpec] = [.value("--format"), .value("--out"), .flag("--quiet")]
    static let help = """
        LOG|DIR --format flat --out OUTDIR [--quiet]

        --format flat writes every event as one flat JSON object with the
        attempt rules applied (its learner's day, counted, score) into
        Hive-style partitions OUTDIR/day=YYYY-MM-DD/part-NNNNN.jsonl, for
        DuckDB, Spark or any engine (docs/analytics.md: the 35 columns, the
        bindings, sql/report.sql). OUTDIR must not exist or be empty; it is
        written whole (a sibling OUTDIR.tmp-PID renamed at the end). A damaged
        log is refused with verify's message, nothing written.

        Options:
          --format F    flat
          --out OUTDIR  the folder of partitions
          --quiet       no progress on stderr while reading a large log
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let format = try args.choice("--format", ["flat"], default: "flat")
        switch format {
        default: return try runFlat(args, io)
        }
    }
}
