/// One subcommand of `progress-ledger`.
///
/// A command declares its options, parses nothing itself, and implements no
/// rule of the spec: it calls Events, Ledger and Projections and prints.
protocol Command: Sendable {
    /// The subcommand's name, e.g. `verify`.
    static var name: String { get }
    /// One line for the tool's command list.
    static var summary: String { get }
    /// The help text after `Usage:`: synopsis, description, options, examples.
    static var help: String { get }
    /// The options the command accepts.
    static var options: [OptionSpec] { get }
    /// Runs the command; returns the exit code.
    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32
}

/// An option a command accepts: `--name VALUE` or a flag `--name`.
struct OptionSpec: Sendable {
    let name: String
    let takesValue: Bool
    let repeatable: Bool

    /// An option with a value (`--user U` or `--user=U`).
    static func value(_ name: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, takesValue: true, repeatable: repeatable)
    }

    /// A flag with no value.
    static func flag(_ name: String) -> OptionSpec {
        OptionSpec(name: name, takesValue: false, repeatable: false)
    }
}

/// Exit codes of the tool.
enum ExitCode {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}
