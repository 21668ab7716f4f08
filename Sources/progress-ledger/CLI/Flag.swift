/// An option without a value (`--quiet`), declared once with its help line;
/// the command reads it as `args[Self.quiet]`, true when given.
struct Flag: OptionSpec {
    let name: String
    let help: String
    var relations: [OptionRelation] = []
    var valueName: String? { nil }
    var repeatable: Bool { false }
    var defaultText: String? { nil }
    /// The option value the flag stands for (`--json`: `--format json`), if any.
    let implies: (option: String, value: String)?

    /// The flag `name`; `implies`: the option value it is the short form of.
    init(_ name: String, help: String, implies: (option: String, value: String)? = nil) {
        (self.name, self.help, self.implies) = (name, help, implies)
    }

    func value(of text: String) throws(CLIError) -> any Sendable { throw .usage("option '\(name)' takes no value") }
}
