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
    /// How the help writes ``defaultValue``, when given as text.
    private let shownText: String?

    /// `option`, with `defaultValue` when not given, written `shown` by the
    /// help (nil: the value's own text, made only when asked for).
    init(option: Option<Value>, defaultValue: Value, shown: String?) {
        self.option = option; self.defaultValue = defaultValue; shownText = shown
    }

    /// How the help writes ``defaultValue``: `shown`, or the value's text.
    /// Made when the help or a relation asks, not when the command's option
    /// table is built: `"\(value)"` of a generic value goes through the
    /// runtime's protocol-conformance lookups (~0.3 M instructions at every
    /// start of `state`; docs/performance.md, "cold state, eighth pass").
    var shown: String { shownText ?? "\(defaultValue)" }

    /// The default as an `only` relation compares it: a choice's raw value
    /// (which is also what the help shows for a choice).
    var defaultText: String? { shown }
    var helpSuffix: String { " (default \(shown))" }
}
