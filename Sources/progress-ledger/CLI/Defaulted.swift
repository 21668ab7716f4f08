/// An option with the value it has when not given, declared once with it:
/// the help line shows it (`(default 30)`), `args[option]` returns it, and an
/// option that is only for some of this option's values sees it.
///
/// The value comes from the library where the library has one
/// (`StateOptions`'s `days`), so it is written in one place.
struct Defaulted<Value: Sendable>: OptionWrapper {
    var option: Option<Value>
    /// The value when the option is not given.
    let defaultValue: Value
    /// How the help writes ``defaultValue``.
    let shown: String

    /// The default as an `only` relation compares it: a choice's raw value
    /// (which is also what the help shows for a choice).
    var defaultText: String? { shown }
    var helpSuffix: String { " (default \(shown))" }
}
