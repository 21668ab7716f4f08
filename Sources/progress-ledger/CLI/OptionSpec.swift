/// What the parser and the help know of one option of a command, whatever
/// the type of its value: declared once (an ``Option`` or a ``Flag``), it is
/// accepted by the parser, listed in the help's options block and read back typed.
protocol OptionSpec: Sendable {
    /// `--name`.
    var name: String { get }
    /// The value's name in the help (`U` of `--user U`); nil for a flag.
    var valueName: String? { get }
    /// What the option does, for the help (wrapped there; `\n` starts a new line).
    var help: String { get }
    /// Whether it may be given more than once.
    var repeatable: Bool { get }
    /// The options it does not go with, and those it needs.
    var relations: [OptionRelation] { get set }
    /// The value `text` stands for, checked; a usage error names the option.
    func value(of text: String) throws(CLIError) -> any Sendable
}

/// How an option relates to another option of its command (checked when parsing).
enum OptionRelation: Sendable {
    /// Refused together with the option of this name.
    case conflicts(String)
    /// Refused without the option of this name (`label`: `--user U`).
    case needs(String, label: String)
}

extension OptionSpec {
    /// `--name VALUE`, as the help and the usage errors write it.
    var label: String { valueName.map { "\(name) \($0)" } ?? name }

    /// This option, refused together with `other` ("--a and --b do not go together").
    func conflicting(with other: some OptionSpec) -> Self { relating(.conflicts(other.name)) }

    /// This option, refused without `other` ("--a needs --b B").
    func needing(_ other: some OptionSpec) -> Self { relating(.needs(other.name, label: other.label)) }

    private func relating(_ relation: OptionRelation) -> Self {
        var copy = self
        copy.relations.append(relation)
        return copy
    }
}
