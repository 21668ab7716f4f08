import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// A log's tree through the public API, on real files: checkpoints, proofs
/// and their checks against RFC 6962's definitions (``RFC6962Model``), and
/// erasure.
@Suite("log trees, checkpoints and proofs")
struct LogTreeTests {
    /// A log of `count` events (users u-1, u-2, u-3 in turn); its lines.
    static func log(_ count: Int, in dir: TempDir, name: String = "tree.log") throws -> (path: String, lines: [[UInt8]]) {
        let path = dir.file(name)
        let writer = try LedgerWriter(path: path)
        try writer.append((1...count).map { try Make.answer("e-\($0)", user: "u-\($0 % 3 + 1)", question: $0) })
        writer.close()
        return (path, try Files.lines(path))
    }

    /// Every size from 1 to 70 (a log of each size, the first lines of one
    /// log): `checkpoint` signs the model's root; every line's proof is the
    /// model's PATH and checks with the line's bytes, not with another line's;
    /// every consistency proof the model makes between two sizes checks, and
    /// fails with its last hash changed. Proofs are made from the stored levels
    /// (`receipts`) for every line and streamed for three lines a size; the
    /// streamed code is checked on every size, index and pair by
    /// ``MerkleTreeTests``. Streamed consistency proofs of five old sizes a
    /// new one are the model's too.
    @Test func everySizeIndexAndPairAgainstTheModel() throws {
        let dir = try TempDir("tree"); defer { dir.cleanup() }
        let (_, lines) = try Self.log(70, in: dir)
        let data = lines.map { SHA256.hash($0).bytes }
        let signer = try NoteSigner.generate(name: "test.example/tree")
        let origin = "test.example/tree"
        var checkpoints: [SignedCheckpoint] = []
        for n in 1...70 {
            let path = dir.file("first-\(n).log")
            try Files.write(path, Array(lines.prefix(n).map { $0 + [0x0A] }.joined()))
            let tree = LogTree(log: path)
            let (signed, proofs) = try tree.receipts(seqs: Array(1...n), origin: origin, signer: signer)
            #expect(signed.checkpoint.size == n)
            #expect(signed.checkpoint.root.bytes == RFC6962Model.mth(data.prefix(n)), "size \(n)")
            #expect(try tree.checkpoint(origin: origin, signer: signer).checkpoint == signed.checkpoint)
            try signed.verify(with: signer.verifier, origin: origin, path: "c")
            checkpoints.append(signed)
            for proof in proofs {
                let seq = proof.index + 1
                #expect(proof.hashes.map(\.bytes) == RFC6962Model.path(seq - 1, data.prefix(n)), "line \(seq) of \(n)")
                let reread = try InclusionProof(parsing: proof.encoded, path: "p")
                #expect(reread == proof)
                try reread.check(line: lines[seq - 1], verifier: signer.verifier, origin: origin, path: "p")
                #expect(throws: ReceiptError.self) { try reread.check(line: lines[seq % 70], verifier: signer.verifier, origin: nil, path: "p") }
            }
            for seq in Set([1, (n + 1) / 2, n]) {
                #expect(try tree.inclusionProof(seq: seq, checkpoint: signed, checkpointPath: "c") == proofs[seq - 1])
            }
        }
        let tree = LogTree(log: dir.file("tree.log"))
        for n in 1...70 {
            for old in 1...n {
                let model = RFC6962Model.proof(old, data.prefix(n)).compactMap { SHA256.Digest(bytes: $0) }
                let proof = try ConsistencyProof(parsing: ConsistencyProof(hashes: model).encoded, path: "k")
                try proof.check(from: checkpoints[old - 1], to: checkpoints[n - 1], verifier: signer.verifier, origin: origin, paths: ("k", "o", "n"))
                if let k = model.indices.last {   // every hash changed: MerkleTreeTests
                    var bad = model
                    bad[k] = SHA256.hash(bad[k].bytes)
                    #expect(throws: ReceiptError.self) {
                        try ConsistencyProof(hashes: bad).check(from: checkpoints[old - 1], to: checkpoints[n - 1], verifier: signer.verifier,
                                                                origin: origin, paths: ("k", "o", "n"))
                    }
                }
                if Set([1, 2, n / 2, n - 1, n]).contains(old) {
                    let made = try tree.consistencyProof(from: checkpoints[old - 1].checkpoint, to: checkpoints[n - 1].checkpoint, paths: ("o", "n"))
                    #expect(made.hashes == model, "\(old) to \(n)")
                }
            }
        }
    }

    /// The receipts of many lines at once (stored levels) are the proofs one at a time (streamed).
    @Test func receiptsAreTheProofsOneAtATime() throws {
        let dir = try TempDir("tree"); defer { dir.cleanup() }
        let (path, lines) = try Self.log(37, in: dir)
        let signer = try NoteSigner.generate(name: "test.example/tree")
        let tree = LogTree(log: path)
        let (signed, proofs) = try tree.receipts(seqs: [1, 2, 17, 36, 37], origin: "o", signer: signer)
        #expect(signed.checkpoint.size == 37)
        for proof in proofs {
            #expect(proof == (try tree.inclusionProof(seq: proof.index + 1, checkpoint: signed, checkpointPath: "c")))
            try proof.check(line: lines[proof.index], verifier: signer.verifier, origin: "o", path: "p")
        }
        #expect(throws: ReceiptError.self) { try tree.receipts(seqs: [38], origin: "o", signer: signer) }
    }

    /// Proofs are made only for a checkpoint of this log as it is.
    @Test func aCheckpointOfAnotherLogOrALongerTreeIsRefused() throws {
        let dir = try TempDir("tree"); defer { dir.cleanup() }
        let (path, _) = try Self.log(20, in: dir)
        let (other, _) = try Self.log(21, in: dir, name: "other.log")
        let signer = try NoteSigner.generate(name: "o")
        let longer = try LogTree(log: other).checkpoint(origin: "o", signer: signer)
        let tree = LogTree(log: path)
        func kind(_ body: () throws -> Void) -> ReceiptError.Kind? {
            do { try body(); return nil } catch let error as ReceiptError { return error.kind } catch { return nil }
        }
        #expect(kind { _ = try tree.inclusionProof(seq: 3, checkpoint: longer, checkpointPath: "c") } == .size)
        #expect(kind { _ = try tree.inclusionProof(seq: 22, checkpoint: longer, checkpointPath: "c") } == .size)
        // The other log's first 20 lines are this log's 20 (the same events): the same root.
        let same = try LogTree(log: other).checkpoint(origin: "o", signer: signer, size: 20)
        #expect(kind { _ = try tree.inclusionProof(seq: 3, checkpoint: same, checkpointPath: "c") } == nil)
        #expect(kind { _ = try tree.head(size: 21) } == .size)
        let (report, mismatch) = try tree.verify(against: longer.checkpoint, checkpointPath: "c")
        #expect(report.isOK && mismatch?.kind == .size)
        // A log edited at its first line (and re-chained) has another root.
        var lines = try Files.lines(path)
        lines[0] = Array(String(decoding: lines[0], as: UTF8.self).replacingOccurrences(of: "q1", with: "q9").utf8)
        let edited = dir.file("edited.log")
        let writer = try LedgerWriter(path: edited)
        try writer.append(try lines.map { line in
            let text = String(decoding: line, as: UTF8.self)
            let start = text.range(of: #""id""#)?.lowerBound ?? text.startIndex
            let end = text.range(of: #","prev""#)?.lowerBound ?? text.endIndex
            return try LineCodec.decodeNewEvent(Array(("{" + text[start..<end] + "}").utf8))
        })
        writer.close()
        let (report2, mismatch2) = try LogTree(log: edited).verify(against: same.checkpoint, checkpointPath: "c")
        #expect(report2.isOK && mismatch2?.kind == .root)
    }

    /// An erasure leaves every checkpoint made before it valid (the same
    /// roots), and every line not erased proves against them as before.
    @Test func erasureLeavesCheckpointsAndProofs() throws {
        let dir = try TempDir("tree"); defer { dir.cleanup() }
        let (path, lines) = try Self.log(45, in: dir)
        let signer = try NoteSigner.generate(name: "o")
        let tree = LogTree(log: path)
        let before = try [10, 33, 45].map { try tree.checkpoint(origin: "o", signer: signer, size: $0) }
        let proofs = try before.map { signed in
            try (1...signed.checkpoint.size).map { try tree.inclusionProof(seq: $0, checkpoint: signed, checkpointPath: "c") }
        }
        let receipt = try erase(path: path, user: "u-2")
        #expect(receipt.linesErased == 15)
        let after = try Files.lines(path)
        for (signed, linesProofs) in zip(before, proofs) {
            #expect(try tree.head(size: signed.checkpoint.size) == signed.checkpoint.head)
            let (report, mismatch) = try tree.verify(against: signed.checkpoint, checkpointPath: "c")
            #expect(report.isOK && mismatch == nil)
            for proof in linesProofs {
                let seq = proof.index + 1
                #expect(try tree.inclusionProof(seq: seq, checkpoint: signed, checkpointPath: "c") == proof)
                // The line as it was checks; a stub in its place does not (it is not the line).
                try proof.check(line: lines[seq - 1], verifier: signer.verifier, origin: "o", path: "p")
                if RedactionStub.decode(after[seq - 1]) != nil {
                    #expect(throws: ReceiptError.self) { try proof.check(line: after[seq - 1], verifier: signer.verifier, origin: "o", path: "p") }
                } else {
                    try proof.check(line: after[seq - 1], verifier: signer.verifier, origin: "o", path: "p")
                }
            }
        }
    }

    /// A learner log of a directory has its own tree; a misrouted event is refused as verify DIR refuses it.
    @Test func aLearnerLogsTree() throws {
        let dir = try TempDir("tree"); defer { dir.cleanup() }
        let (path, _) = try Self.log(30, in: dir)
        _ = try LedgerDirectory.split(log: path, into: dir.file("ledger.d"))
        let directory = try LedgerDirectory(opening: dir.file("ledger.d"))
        let learner = try LogTree(directory: directory, user: "u-2")
        let own = LogTree(log: directory.learnerPath(user: "u-2"))
        #expect(try learner.head() == own.head())
        #expect(try learner.head().size == 10)
        #expect(throws: LedgerError.self) { try LogTree(directory: directory, user: "nobody") }
        // An event of u-1 appended (as an ordinary line) to u-2's log: misrouted.
        let writer = try LedgerWriter(path: directory.learnerPath(user: "u-2"))
        try writer.append([try Make.answer("stray", user: "u-1")])
        writer.close()
        #expect(try own.head().size == 11)
        do { _ = try learner.head(); Issue.record("a misrouted event was taken") } catch {
            #expect(error.kind == .file && error.description.contains("misrouted"), "\(error)")
        }
    }
}
