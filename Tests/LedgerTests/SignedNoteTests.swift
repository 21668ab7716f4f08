import Foundation
import Testing
@testable import Ledger

/// Signed notes, note keys and checkpoints against the published examples of
/// C2SP (c2sp.org/signed-note, c2sp.org/tlog-checkpoint) and of Go's
/// golang.org/x/mod/sumdb/note (its package documentation).
@Suite("signed notes and checkpoints")
struct SignedNoteTests {
    static let c2spVerifier = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
    static let c2spNote = "This is an example message.\n\n"
        + "— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"

    static let goSigner = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
    static let goVerifier = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
    static let goText = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
    static let goSignature = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
    static let enochSignature = "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n"

    @Test func c2spExampleVerifies() throws {
        let verifier = try NoteVerifier(parsing: Self.c2spVerifier, path: "vkey")
        #expect(verifier.name == "example.com/foo" && verifier.keyID == 0x530d903a)
        #expect(verifier.description == Self.c2spVerifier)
        let note = try SignedNote(parsing: Array(Self.c2spNote.utf8), path: "note")
        #expect(note.text == "This is an example message.\n")
        #expect(note.encoded == Array(Self.c2spNote.utf8))
        try note.verify(with: verifier, path: "note")
    }

    @Test func c2spExampleRefusesChanges() throws {
        let verifier = try NoteVerifier(parsing: Self.c2spVerifier, path: "vkey")
        func kind(_ text: String) -> ReceiptError.Kind? {
            do { try SignedNote(parsing: Array(text.utf8), path: "note").verify(with: verifier, path: "note"); return nil } catch {
                return error.kind
            }
        }
        #expect(kind(Self.c2spNote.replacingOccurrences(of: "example message", with: "example massage")) == .signature)
        #expect(kind(Self.c2spNote.replacingOccurrences(of: "Uw2QOkn8", with: "Uw2QOkn9")) == .signature)
        #expect(kind(Self.c2spNote.replacingOccurrences(of: "— example.com/foo", with: "— example.com/bar")) == .key)
        #expect(kind(Self.c2spNote.replacingOccurrences(of: "\n\n", with: "\n")) == .malformed)
        #expect(kind(Self.c2spNote.replacingOccurrences(of: "This", with: "Th\u{7}is")) == .malformed)
        let other = try NoteSigner.generate(name: "example.com/foo")
        #expect(throws: ReceiptError.self) { try SignedNote(parsing: Array(Self.c2spNote.utf8), path: "n").verify(with: other.verifier, path: "n") }
    }

    @Test func goExampleKeysAndSignature() throws {
        let signer = try NoteSigner(parsing: Self.goSigner + "\n", path: "skey")
        #expect(signer.verifier.description == Self.goVerifier)
        #expect(signer.privateKeyText == Self.goSigner)
        let note = try SignedNote.sign(Self.goText, with: signer)
        let published = Array((Self.goText + "\n" + Self.goSignature).utf8)
        #if !canImport(CryptoKit)
        // RFC 8032 signatures are deterministic; libcrypto gives Go's bytes. (CryptoKit's are randomized: checked below.)
        #expect(note.encoded == published)
        #endif
        let verifier = try NoteVerifier(parsing: Self.goVerifier, path: "vkey")
        try note.verify(with: verifier, path: "mine")
        try SignedNote(parsing: published, path: "go").verify(with: verifier, path: "go")
        // A second signature by an unknown key is ignored.
        try SignedNote(parsing: published + Array(Self.enochSignature.utf8), path: "go").verify(with: verifier, path: "go")
    }

    @Test func keysAreCheckedWhole() {
        func kind(_ text: String, privateKey: Bool) -> ReceiptError.Kind? {
            do {
                if privateKey { _ = try NoteSigner(parsing: text, path: "k") } else { _ = try NoteVerifier(parsing: text, path: "k") }
                return nil
            } catch { return error.kind }
        }
        #expect(kind(Self.goVerifier.replacingOccurrences(of: "c74f20a3", with: "c74f20a4"), privateKey: false) == .malformed)
        #expect(kind(Self.goSigner.replacingOccurrences(of: "c74f20a3", with: "c74f20a4"), privateKey: true) == .malformed)
        #expect(kind(Self.goSigner, privateKey: false) == .malformed)
        #expect(kind(Self.goVerifier, privateKey: true) == .malformed)
        #expect(kind("Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", privateKey: false) == .malformed)
        #expect(kind("PeterNeumann+c74f20a3+AhpjZ2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10T", privateKey: false) != nil)
        #expect(kind(Self.goVerifier, privateKey: false) == nil)
    }

    @Test func generatedKeysRoundTrip() throws {
        let signer = try NoteSigner.generate(name: "school.example/progress")
        let again = try NoteSigner(parsing: signer.privateKeyText, path: "k")
        #expect(again.verifier == signer.verifier)
        #expect(try NoteVerifier(parsing: signer.verifier.description, path: "v") == signer.verifier)
        #expect(throws: ReceiptError.self) { try NoteSigner.generate(name: "two words") }
        #expect(throws: ReceiptError.self) { try NoteSigner.generate(name: "a+b") }
    }

    /// The example of c2sp.org/tlog-checkpoint parses as its three lines say.
    @Test func c2spCheckpointExample() throws {
        let text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n"
            + "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
        let signed = try SignedCheckpoint(parsing: Array(text.utf8), path: "c")
        #expect(signed.checkpoint.origin == "example.com/behind-the-sofa")
        #expect(signed.checkpoint.size == 20852163)
        #expect(Base64.encode(signed.checkpoint.root.bytes) == "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
        #expect(signed.encoded == Array(text.utf8))
        for bad in ["example.com/x\n020\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "example.com/x\n20\nCsUY\n",
                    "example.com/x\n20\n", "\n20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n",
                    "example.com/x\n20\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\nextension\n"] {
            #expect(throws: ReceiptError.self, "\(bad)") { try Checkpoint(text: bad, path: "c") }
        }
    }

    @Test func base64IsCanonical() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let text = Base64.encode(bytes)
            #expect(Base64.decode(text) == bytes)
            #expect(text == Data(bytes).base64EncodedString())
        }
        #expect(Base64.decode("AB==") == nil)   // unused bits set
        #expect(Base64.decode("AA=A") == nil)
        #expect(Base64.decode("AAA") == nil)
        #expect(Base64.decode("AA A") == nil)
    }
}
