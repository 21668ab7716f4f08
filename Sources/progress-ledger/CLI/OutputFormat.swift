/// The forms one command's output takes, as an enum of its own (`--format F`):
/// a switch over it has no `default:` that could turn a typo into text.
protocol OutputFormat: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

/// A command's output options, declared once: `--format F`, one of `F`'s
/// cases (any other value is a usage error naming them), and `--json` as the
/// short form of `--format json` where the command has it.
struct FormatOption<F: OutputFormat>: Sendable {
    /// `--format F`.
    let format: Option<F>
    /// `--json` and the format it stands for, when the command takes it.
    let json: (flag: Flag, format: F)?
    /// The format when none is given; nil: `--format` is required.
    let defaultFormat: F?

    /// `--format F` with `help`, defaulting to `defaultFormat` (required when
    /// nil), and `--json` for `json.format` when given.
    init(help: String, default defaultFormat: F?, json: (format: F, help: String)? = nil) {
        format = .choice("--format", value: "F", help: help)
        self.json = json.map { (Flag("--json", help: $0.help), $0.format) }
        self.defaultFormat = defaultFormat
    }

    /// The options to list in the command's ``Command/options``.
    var options: [any OptionSpec] { [format] + (json.map { [$0.flag] } ?? []) }

    /// The format asked for: `--format`, else `--json`'s, else the default.
    func resolve(_ args: ParsedArguments) throws(CLIError) -> F {
        let asJSON = json.flatMap { args[$0.flag] ? $0.format : nil }
        if let given = args[format] {
            if let asJSON, given != asJSON { throw .usage("--json and --format \(given.rawValue) disagree") }
            return given
        }
        guard let chosen = asJSON ?? defaultFormat else {
            throw .usage("missing --format \(F.allCases.map(\.rawValue).joined(separator: "|"))")
        }
        return chosen
    }
}
