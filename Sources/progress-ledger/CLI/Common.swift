/// The options several commands share, declared once.
enum Common {
    /// `--user U`: the learner, required by the commands that read one.
    static let user = learner("the learner (exact match, case-sensitive)").required

    /// `--user U` with `help`: what the learner selects in a command where it is optional.
    static func learner(_ help: String) -> Option<String> {
        Option.nonEmpty("--user", value: "U", help: help, what: "a non-empty learner id")
    }

    /// `--quiet`: no progress line.
    static let quiet = Flag("--quiet", help: "no progress on stderr while reading a large log (shown only when stderr is a terminal)")

    /// `--out FILE`: the output written whole to a file instead of stdout.
    static let out = Option("--out", value: "FILE", help: "write to FILE instead of stdout: whole (a new file beside FILE, "
                            + "renamed over it), mode 0600 whatever the umask. A symlink, a directory, a read-only file "
                            + "or a log at FILE is refused and left as it is")
}
