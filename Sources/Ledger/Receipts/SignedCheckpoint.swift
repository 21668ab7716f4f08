/// A ``Checkpoint`` signed as a C2SP `signed-note`: what `progress-ledger
/// checkpoint` prints, and what a proof carries.
///
/// ```
/// school.example/progress
/// 6392
/// 3Bm7tFQQyQ1MfNv1hZ4p5Lx1wB5Cz3cUlZJ8qdh0yAA=
///
/// — school.example/progress Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5...
/// ```
public struct SignedCheckpoint: Sendable, Hashable {
    /// The checkpoint the note's text holds.
    public var checkpoint: Checkpoint
    /// The note: the checkpoint's text and its signatures.
    public var note: SignedNote

    /// `checkpoint` signed with `signer`.
    public static func sign(_ checkpoint: Checkpoint, with signer: NoteSigner) throws(ReceiptError) -> SignedCheckpoint {
        SignedCheckpoint(checkpoint: checkpoint, note: try SignedNote.sign(checkpoint.text, with: signer))
    }

    private init(checkpoint: Checkpoint, note: SignedNote) { self.checkpoint = checkpoint; self.note = note }

    /// Reads a signed checkpoint (the form only: ``verify(with:origin:path:)``
    /// checks the signature); `firstLine` is where it starts in the file.
    public init(parsing bytes: [UInt8], path: String, firstLine: Int = 1) throws(ReceiptError) {
        note = try SignedNote(parsing: bytes, path: path, firstLine: firstLine)
        checkpoint = try Checkpoint(text: note.text, path: path, firstLine: firstLine)
    }

    /// Reads the signed checkpoint in the file at `path`.
    public init(contentsOf path: String) throws(ReceiptError) {
        try self.init(parsing: try NoteName.readBytes(path), path: path)
    }

    /// The signed note's bytes.
    public var encoded: [UInt8] { note.encoded }

    /// Checks that `verifier`'s key signed it (``ReceiptError/Kind/key``,
    /// ``ReceiptError/Kind/signature``) and, when `origin` is given, that it is
    /// that log's (``ReceiptError/Kind/origin``). `path` names it in errors.
    public func verify(with verifier: NoteVerifier, origin: String?, path: String) throws(ReceiptError) {
        try note.verify(with: verifier, path: path)
        if let origin, checkpoint.origin != origin {
            throw ReceiptError(.origin, path: path, "the checkpoint's origin is \"\(checkpoint.origin)\", not \"\(origin)\"")
        }
    }
}
