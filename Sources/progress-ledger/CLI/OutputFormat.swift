/// The forms one command's output takes, as an enum of its own (`--format F`):
/// a switch over it has no `default:` that could turn a typo into text.
protocol OutputFormat: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

/// A command's output options, declared once, the same on every command
/// that prints data (docs/cli.md, "Output"): `--format F`, one of `F`'s cases
/// (any other value is a usage error naming them), a default when it is not
/// given (`text` for every command that prints for a person), and `--json`,
/// the short form of `--format json`, wherever `F` has `json`.
struct FormatOption<F: OutputFormat>: Sendable {
    /// `--format F`.
    let format: Option<F>
    /// `--json`, when `F` has a `json` case.
    let json: Flag?
    /// The format when none is given.
    let defaultFormat: F

    /// `--format F` with `help` (what each format prints), defaulting to
    /// `defaultFormat`, and `--json` when `F` has `json`.
    init(help: String, default defaultFormat: F) {
        var format = Option<F>.choice("--format", value: "F", help: help)
        format.defaultText = defaultFormat.rawValue
        self.format = format
        json = F(rawValue: "json").map { _ in Flag("--json", help: "short for --format json", implies: ("--format", "json")) }
        self.defaultFormat = defaultFormat
    }

    /// The options to list in the command's ``Command/options``.
    var options: [any OptionSpec] { [format] + (json.map { [$0] } ?? []) }

    /// The format asked for: `--format`, else `--json`'s, else the default.
    func resolve(_ args: ParsedArguments) throws(CLIError) -> F {
        let asJSON = json.flatMap { args[$0] ? F(rawValue: "json") : nil }
        if let given = args[format] {
            if let asJSON, given != asJSON { throw .usage("--json and --format \(given.rawValue) disagree") }
            return given
        }
        return asJSON ?? defaultFormat
    }
}
