import Ledger

/// `progress-ledger keygen NAME --out KEYFILE`: a new Ed25519 signing key.
enum KeygenCommand: Command {
    static let name = "keygen"
    static let summary = "make a signing key for checkpoints; print its verifier key"
    static let help = """
        Makes a new Ed25519 key named NAME (e.g. school.example/progress: no
        spaces, no '+') from the system's secure random source and writes it to
        KEYFILE as a C2SP note private key, PRIVATE+KEY+NAME+HASH+BASE64 (Go's
        golang.org/x/mod/sumdb/note format), mode 0600. KEYFILE must not exist:
        a key is never replaced. Keep it secret: it signs the log's checkpoints.

        Prints the verifier key, NAME+HASH+BASE64 (HASH: the key ID, the first
        4 bytes of SHA-256(NAME, newline, 0x01, public key)): the public text
        a VKEYFILE holds, given to anyone who checks a checkpoint or a proof
        (docs/receipts.md).
        """
    static let out = Option.nonEmpty("--out", value: "KEYFILE", help: "the new private key file (refused if anything is there)",
                                     what: "a file name").required
    static let options: [any OptionSpec] = [out]
    static let usage = [Form("NAME", options: options)]
    static let examples = """
        progress-ledger keygen school.example/progress --out school.key > school.vkey
        """

    static func run(_ args: ParsedArguments, _ io: Terminal) throws -> Int32 {
        let name = try args.onePositional("NAME")
        let path = try args.required(Self.out)
        let signer = try Receipts.failing { () throws(ReceiptError) in try NoteSigner.generate(name: name) }
        do { try SmallFile.create(Array((signer.privateKeyText + "\n").utf8), at: path) } catch { throw CLIError.failure(error.description) }
        io.line(signer.verifier.description)
        io.error("progress-ledger keygen: wrote the private key of \(signer.verifier.label) to \(path) (keep it secret); its verifier key is on stdout")
        return ExitCode.ok
    }
}
