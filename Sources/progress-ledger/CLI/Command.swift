/// One subcommand of `progress-ledger`.
///
/// A command declares its options, parses nothing itself, and implements no
/// rule of the spec: it calls Events, Ledger and Projections and prints. Its
/// `--help` is made from its parts (``HelpText``): the synopsis and the
/// options block come from the options' declarations (their defaults too),
/// so the help lists exactly what the parser accepts.
protocol Command: Sendable {
    /// The subcommand's name, e.g. `verify`.
    static var name: String { get }
    /// One line for the tool's command list.
    static var summary: String { get }
    /// The ways to call it, one a line after `Usage: progress-ledger NAME`,
    /// made from the declared options (``Form``, ``Usage``).
    static var usage: [Form] { get }
    /// What the command does: the paragraphs between the synopsis and the options.
    static var help: String { get }
    /// The options the command accepts, in the help's order.
    static var options: [any OptionSpec] { get }
    /// Example command lines, one a line as the help prints them (a line
    /// that starts with a space continues the example above it).
    static var examples: String { get }
    /// Runs the command; returns the exit code.
    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32
}

extension Command {
    static var options: [any OptionSpec] { [] }
    static var examples: String { "" }
}

/// Exit codes of the tool.
enum ExitCode {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}
