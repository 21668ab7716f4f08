/// The forms one command's output takes, as an enum of its own (`--format F`):
/// a switch over it has no `default:` that could turn a typo into text.
protocol OutputFormat: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

/// A command's output options, declared once, the same on every command
/// that prints data (docs/cli.md, "Output"): `--format F`, one of `F`'s cases
/// (any other value is a usage error naming them), a default when it is not
/// given (`text` for every command that prints for a person), `--json`,
/// the short form of `--format json`, wherever `F` has `json`, and `--out FILE`.
struct OutputOptions<F: OutputFormat>: Sendable {
    /// `--format F`, with its default.
    let format: Defaulted<F>
    /// `--json`, when `F` has a `json` case.
    let json: Flag?
    /// `--out FILE` (``Common/out``, unless the command writes otherwise: `export`).
    let out: Option<String>

    /// `--format F` with `help` (what each format prints), defaulting to
    /// `defaultFormat`, `--json` when `F` has `json`, and `out`.
    init(help: String, default defaultFormat: F, out: Option<String> = Common.out) {
        format = Option<F>.choice("--format", value: "F", help: help).defaulting(to: defaultFormat)
        json = F(rawValue: "json").map { _ in Flag("--json", help: "short for --format json", implies: ("--format", "json")) }
        self.out = out
    }

    /// The options to list in the command's ``Command/options``.
    var options: [any OptionSpec] { [format] + (json.map { [$0] } ?? []) + [out] }

    /// The format asked for: `--format`, else `--json`'s, else the default.
    func resolve(_ args: ParsedArguments) throws(CLIError) -> F {
        let asJSON = json.flatMap { args[$0] ? F(rawValue: "json") : nil }
        if let given = args[format.option] {
            if let asJSON, given != asJSON { throw .usage("--json and --format \(given.rawValue) disagree") }
            return given
        }
        return asJSON ?? args[format]
    }
}

extension OutputOptions {
    /// `--format VALUE` in a synopsis: the form of the command for that format.
    func form(_ value: F) -> Usage { .value(format, value.rawValue) }
}
