import Ledger

/// What the receipt commands share (`keygen`, `checkpoint`, `prove`,
/// `check-proof`, `verify --checkpoint`, `export --receipts`; docs/receipts.md):
/// their options, declared once, and how they open keys, checkpoints and a
/// log's tree. Every rule (formats, checks) is the Ledger's.
enum Receipts {
    /// `--key KEYFILE`: the private key that signs.
    static let key = Option.nonEmpty("--key", value: "KEYFILE", help: "the signing key: a PRIVATE+KEY+NAME+HASH+BASE64 file (from keygen)",
                                     what: "a key file")
    /// `--origin ORIGIN`: the log's name written into a checkpoint.
    static let origin = Option.nonEmpty("--origin", value: "ORIGIN", help: "the log's name in the checkpoint, e.g. "
                                        + "school.example/progress (one per log: a learner log's own, e.g. school.example/progress/u-42)",
                                        what: "a non-empty log name")
    /// `--origin ORIGIN`: the origin a checkpoint must have.
    static let expectedOrigin = Option.nonEmpty("--origin", value: "ORIGIN", help: "also require the checkpoint's origin to be ORIGIN",
                                                what: "a non-empty log name").byDefault("any origin the key signed, printed")
    /// `--checkpoint FILE`: a signed checkpoint.
    static let checkpoint = Option.nonEmpty("--checkpoint", value: "FILE", help: "a signed checkpoint of the log (from 'checkpoint')",
                                            what: "a checkpoint file")
    /// `--vkey VKEYFILE`: the verifier key that must have signed.
    static let vkey = Option.nonEmpty("--vkey", value: "VKEYFILE", help: "the log's verifier key: a NAME+HASH+BASE64 file (printed by keygen)",
                                      what: "a verifier key file")
    /// `--user U`: in a ledger directory, the learner whose log is the tree.
    static let user = Common.learner("DIR: U's learner log alone (checkpoint and prove need it with a DIR: each learner log has its own tree)")
    /// `[--checkpoint FILE --vkey VKEYFILE [--origin ORIGIN]]`: a log checked against a signed checkpoint.
    static let checkedAgainstCheckpoint = Usage.optional([.option(checkpoint), .option(vkey), .optional([.option(expectedOrigin)])])

    /// The tree of LOG, or of `user`'s learner log when `path` is a ledger directory.
    static func tree(_ path: String, user: String?) throws(CLIError) -> LogTree {
        guard let directory = try LogInput.directory(path) else {
            if user != nil { throw .usage("--user is for a ledger directory; \(path) is a log (its tree is over all its lines)") }
            return LogTree(log: path)
        }
        guard let user else { throw .usage("\(path) is a ledger directory: --user U names the learner log (each has its own tree)") }
        do { return try LogTree(directory: directory, user: user) } catch { throw .failure(error.description) }
    }

    /// Runs `body`, turning a refused key, checkpoint or proof into a failure (exit 1) naming it.
    static func failing<T>(_ body: () throws(ReceiptError) -> T) throws(CLIError) -> T {
        do { return try body() } catch { throw .failure(error.description) }
    }
}
