/// An option without a value (`--quiet`), declared once with its help line;
/// the command reads it as `args[Self.quiet]`, true when given.
struct Flag: OptionSpec {
    let name: String
    let help: String
    var relations: [OptionRelation] = []
    var valueName: String? { nil }
    var repeatable: Bool { false }

    /// The flag `name`.
    init(_ name: String, help: String) { (self.name, self.help) = (name, help) }

    func value(of text: String) throws(CLIError) -> any Sendable { throw .usage("option '\(name)' takes no value") }
}
