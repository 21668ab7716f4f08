import Foundation
import Ledger
import Simulation
import Testing

/// `keygen`, `checkpoint`, `prove`, `check-proof`, `verify --checkpoint` and
/// `export --receipts` through the tool, against RFC 6962's tree computed
/// by Python's hashlib (written from the RFC's definitions, in another language).
@Suite("receipts: keygen, checkpoint, prove, check-proof")
struct ReceiptsCommandTests {
    /// RFC 6962 section 2.1 by its definitions: for the log at argv[1] of n
    /// lines, the roots of its first 1..n lines, each line's PATH in the tree
    /// of n, and PROOF(m, n) for m = 1..n, as base64.
    static let model = #"""
import base64, hashlib, json, sys
H = lambda b: hashlib.sha256(b).digest()
data = [H(line) for line in open(sys.argv[1], 'rb').read().split(b'\n')[:-1]]
def k(n):
    k = 1
    while k * 2 < n: k *= 2
    return k
def mth(d):
    if len(d) == 0: return H(b'')
    if len(d) == 1: return H(b'\x00' + d[0])
    return H(b'\x01' + mth(d[:k(len(d))]) + mth(d[k(len(d)):]))
def path(m, d):
    if len(d) <= 1: return []
    s = k(len(d))
    return path(m, d[:s]) + [mth(d[s:])] if m < s else path(m - s, d[s:]) + [mth(d[:s])]
def subproof(m, d, b):
    if m == len(d): return [] if b else [mth(d)]
    s = k(len(d))
    return subproof(m, d[:s], b) + [mth(d[s:])] if m <= s else subproof(m - s, d[s:], False) + [mth(d[:s])]
b64 = lambda h: base64.b64encode(h).decode()
n = len(data)
print(json.dumps({"roots": [b64(mth(data[:i])) for i in range(1, n + 1)],
                  "paths": [[b64(h) for h in path(m, data)] for m in range(n)],
                  "proofs": [[b64(h) for h in subproof(m, data, True)] for m in range(1, n + 1)]}))
"""#

    struct Model: Decodable { let roots: [String]; let paths: [[String]]; let proofs: [[String]] }

    /// A demo log cut to its first `lines` lines, a key pair, and the folder.
    static func setUp(lines: Int = 70) throws -> (dir: TemporaryDirectory, log: String, lines: [String]) {
        let dir = try TemporaryDirectory()
        let full = dir.path("full.log")
        _ = try TrustCommandTests.writeDemo(.init(users: 4, days: 4, seed: 25), to: full)
        let all = String(decoding: dir.bytes("full.log"), as: UTF8.self).split(separator: "\n").map(String.init)
        let log = dir.path("progress.log")
        try Data(all.prefix(lines).map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: log))
        let k = try CLI.run(["keygen", "school.example/progress", "--out", dir.path("school.key")])
        #expect(k.status == 0, "\(k.stderr)")
        try Data(k.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("school.vkey")))
        let o = try CLI.run(["keygen", "other.example/progress", "--out", dir.path("other.key")])
        try Data(o.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("other.vkey")))
        return (dir, log, Array(all.prefix(lines)))
    }

    /// `checkpoint LOG` (of its first `size` lines) signed with the folder's school.key, written to the folder's `name`.
    @discardableResult
    static func checkpoint(_ log: String, in dir: TemporaryDirectory, size: Int? = nil, origin: String = "school.example/progress",
                           user: String? = nil, to name: String) throws -> CLIResult {
        let r = try CLI.run(["checkpoint", log, "--key", dir.path("school.key"), "--origin", origin]
                            + (size.map { ["--size", String($0)] } ?? []) + (user.map { ["--user", $0] } ?? []))
        #expect(r.status == 0, "\(r.stderr)")
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: dir.path(name)))
        return r
    }

    /// The `user` of a log line.
    static func user(of line: String) -> String? {
        line.components(separatedBy: #""user":""#).dropFirst().first?.components(separatedBy: "\"").first
    }

    static func hashLines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }

    @Test("keygen writes a 0600 private key, prints its verifier key, and never replaces a file")
    func keygen() throws {
        let dir = try TemporaryDirectory()
        let key = dir.path("k")
        let r = try CLI.run(["keygen", "school.example/progress", "--out", key])
        #expect(r.status == 0, "\(r.stderr)")
        let signer = try NoteSigner(contentsOf: key)
        #expect(r.stdout == signer.verifier.description + "\n")
        #expect(r.stdout.hasPrefix("school.example/progress+"))
        #expect(String(decoding: dir.bytes("k"), as: UTF8.self).hasPrefix("PRIVATE+KEY+school.example/progress+"))
        let mode = (try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600)
        let before = dir.bytes("k")
        let again = try CLI.run(["keygen", "school.example/progress", "--out", key])
        #expect(again.status == 1 && again.stderr.contains("already exists") && dir.bytes("k") == before)
        #expect(try CLI.run(["keygen", "two words", "--out", dir.path("k2")]).status == 1)
        #expect(try CLI.run(["keygen", "x"]).status == 64)
    }

    /// Every size from 1 to 70 through the tool: `checkpoint --size` signs
    /// the model's root, `prove --seq` prints the model's path for every
    /// line of the tree of 70, and `prove --from` the model's consistency
    /// proof from every size; `check-proof` accepts each.
    @Test("checkpoint, prove and check-proof agree with RFC 6962's tree for every size, line and old size up to 70")
    func agreeWithTheRFC() throws {
        let (dir, log, lines) = try Self.setUp()
        let r = try CLI.python(Self.model, [log])
        #expect(r.status == 0, "\(r.stderr)")
        let model = try JSONDecoder().decode(Model.self, from: Data(r.stdout.utf8))
        let vkey = dir.path("school.vkey")
        for n in 1...70 {
            let c = try Self.checkpoint(log, in: dir, size: n, to: "c-\(n)")
            let text = c.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(text.prefix(3) == ["school.example/progress", Substring(String(n)), Substring(model.roots[n - 1])], "size \(n)")
        }
        for seq in 1...70 {
            let p = try CLI.run(["prove", log, "--seq", String(seq), "--checkpoint", dir.path("c-70")])
            #expect(p.status == 0, "\(p.stderr)")
            let head = p.stdout.components(separatedBy: "\n\n")[0]
            #expect(head == (["c2sp.org/tlog-proof@v1", "index \(seq - 1)"] + model.paths[seq - 1]).joined(separator: "\n"), "line \(seq)")
            try Data(p.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("p")))
            try Data((lines[seq - 1] + "\n").utf8).write(to: URL(fileURLWithPath: dir.path("line")))
            let check = try CLI.run(["check-proof", dir.path("p"), "--line", dir.path("line"), "--vkey", vkey, "--origin", "school.example/progress"])
            #expect(check.status == 0 && check.stdout.contains(": ok: ") && check.stdout.contains("is line \(seq) of school.example/progress at size 70"),
                    "\(check.stdout)")
        }
        for old in 1...70 {
            let k = try CLI.run(["prove", log, "--from", dir.path("c-\(old)"), "--checkpoint", dir.path("c-70")])
            #expect(k.status == 0, "\(k.stderr)")
            #expect(Self.hashLines(k.stdout) == model.proofs[old - 1], "\(old) to 70")
            try Data(k.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("k")))
            let check = try CLI.run(["check-proof", dir.path("k"), "--from", dir.path("c-\(old)"), "--checkpoint", dir.path("c-70"), "--vkey", vkey])
            #expect(check.status == 0, "\(check.stdout)")
        }
    }

    /// Each way a proof can be wrong is refused with exit 1 and its kind.
    @Test("check-proof says what failed: signature, key, origin, root, path, size, malformed")
    func checkProofRefusals() throws {
        let (dir, log, lines) = try Self.setUp(lines: 40)
        let vkey = dir.path("school.vkey")
        try Self.checkpoint(log, in: dir, to: "c")
        try Self.checkpoint(log, in: dir, size: 9, to: "c-9")
        let proof = try CLI.run(["prove", log, "--seq", "7", "--checkpoint", dir.path("c")]).stdout
        try Data((lines[6] + "\n").utf8).write(to: URL(fileURLWithPath: dir.path("line-7")))
        try Data((lines[7] + "\n").utf8).write(to: URL(fileURLWithPath: dir.path("line-8")))
        func check(_ proofText: String, line: String = "line-7", vkey: String? = nil, origin: String? = nil) throws -> CLIResult {
            try Data(proofText.utf8).write(to: URL(fileURLWithPath: dir.path("p")))
            return try CLI.run(["check-proof", dir.path("p"), "--line", dir.path(line), "--vkey", vkey ?? dir.path("school.vkey")]
                               + (origin.map { ["--origin", $0] } ?? []))
        }
        func expectKind(_ r: CLIResult, _ kind: String, _ note: String) {
            #expect(r.status == 1 && r.stdout.hasPrefix(dir.path("p") + ": ") && r.stdout.contains(": \(kind): "), "\(note): \(r.stdout) \(r.stderr)")
        }
        #expect(try check(proof).status == 0)
        let parts = proof.components(separatedBy: "\n")
        // The signature: a character of its base64 changed.
        let signatureLine = try #require(parts.lastIndex { $0.hasPrefix("— ") })
        var changed = parts
        let sig = changed[signatureLine]
        let at = sig.index(sig.endIndex, offsetBy: -10)
        changed[signatureLine] = sig.replacingCharacters(in: at...at, with: sig[at] == "A" ? "B" : "A")
        expectKind(try check(changed.joined(separator: "\n")), "signature", "signature")
        // The root in the checkpoint: the signature no longer verifies.
        let rootLine = parts.count - 4
        changed = parts
        changed[rootLine] = flipped(parts[rootLine])
        expectKind(try check(changed.joined(separator: "\n")), "signature", "root in the checkpoint")
        // Another key, another origin.
        expectKind(try check(proof, vkey: dir.path("other.vkey")), "key", "key")
        expectKind(try check(proof, origin: "school.example/other"), "origin", "origin")
        // Another line, a changed path hash: the root they lead to is not the checkpoint's.
        expectKind(try check(proof, line: "line-8"), "root", "line")
        changed = parts
        changed[3] = flipped(parts[3])
        expectKind(try check(changed.joined(separator: "\n")), "root", "path hash")
        // A hash left out: the path's length is wrong for the index and size.
        changed = parts
        changed.remove(at: 3)
        expectKind(try check(changed.joined(separator: "\n")), "path", "short path")
        // An index past the tree.
        changed = parts
        changed[1] = "index 40"
        expectKind(try check(changed.joined(separator: "\n")), "size", "index")
        expectKind(try check("not a proof\n"), "malformed", "malformed")
        // Consistency: reversed sizes, a changed hash.
        let k = try CLI.run(["prove", log, "--from", dir.path("c-9"), "--checkpoint", dir.path("c")]).stdout
        try Data(k.utf8).write(to: URL(fileURLWithPath: dir.path("k")))
        let reversed = try CLI.run(["check-proof", dir.path("k"), "--from", dir.path("c"), "--checkpoint", dir.path("c-9"), "--vkey", vkey])
        #expect(reversed.status == 1 && reversed.stdout.contains(": size: "), "\(reversed.stdout)")
        var hashes = Self.hashLines(k)
        hashes[0] = flipped(hashes[0])
        try Data(hashes.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: dir.path("k2")))
        let bad = try CLI.run(["check-proof", dir.path("k2"), "--from", dir.path("c-9"), "--checkpoint", dir.path("c"), "--vkey", vkey])
        #expect(bad.status == 1 && bad.stdout.contains(": root: "), "\(bad.stdout)")
        // Usage: neither --line nor --from; --from without --checkpoint.
        #expect(try CLI.run(["check-proof", dir.path("p"), "--vkey", vkey]).status == 64)
        #expect(try CLI.run(["check-proof", dir.path("k"), "--from", dir.path("c-9"), "--vkey", vkey]).status == 64)
    }

    /// A base64 hash with its first byte changed (still a valid hash line).
    func flipped(_ text: String) -> String {
        guard var bytes = Data(base64Encoded: text) else { return text }
        bytes[0] ^= 1
        return bytes.base64EncodedString()
    }

    @Test("verify --checkpoint: the signed --expect-head; prove refuses a checkpoint of another log")
    func verifyAgainstACheckpoint() throws {
        let (dir, log, _) = try Self.setUp(lines: 30)
        let vkey = dir.path("school.vkey")
        try Self.checkpoint(log, in: dir, size: 20, to: "c")
        let ok = try CLI.run(["verify", log, "--checkpoint", dir.path("c"), "--vkey", vkey, "--origin", "school.example/progress"])
        #expect(ok.status == 0 && ok.stdout.contains("; its first 20 lines match the checkpoint \(dir.path("c"))"), "\(ok.stdout)")
        let key2 = try CLI.run(["verify", log, "--checkpoint", dir.path("c"), "--vkey", dir.path("other.vkey")])
        #expect(key2.status == 1 && key2.stdout.contains(": key: "), "\(key2.stdout)")
        #expect(try CLI.run(["verify", log, "--checkpoint", dir.path("c")]).status == 64)
        #expect(try CLI.run(["verify", log, "--vkey", vkey]).status == 64)
        // A log of 19 lines is shorter than the checkpoint's tree; another log of 30 has another root.
        let lines = String(decoding: dir.bytes("progress.log"), as: UTF8.self).split(separator: "\n")
        try Data(lines.prefix(19).map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: dir.path("short.log")))
        let short = try CLI.run(["verify", dir.path("short.log"), "--checkpoint", dir.path("c"), "--vkey", vkey])
        #expect(short.status == 1 && short.stdout.hasPrefix(dir.path("short.log") + ": size: "), "\(short.stdout)")
        _ = try TrustCommandTests.writeDemo(.init(users: 4, days: 4, seed: 26), to: dir.path("other.log"))
        let other = try CLI.run(["verify", dir.path("other.log"), "--checkpoint", dir.path("c"), "--vkey", vkey])
        #expect(other.status == 1 && other.stdout.hasPrefix(dir.path("other.log") + ": root: "), "\(other.stdout)")
        let prove = try CLI.run(["prove", dir.path("other.log"), "--seq", "3", "--checkpoint", dir.path("c")])
        #expect(prove.status == 1 && prove.stdout.isEmpty && prove.stderr.contains(": root: "), "\(prove.stderr)")
        // A damaged log: verify's own message.
        var bytes = dir.bytes("progress.log")
        bytes[30] = UInt8(ascii: "#")
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let damaged = try CLI.run(["verify", log, "--checkpoint", dir.path("c"), "--vkey", vkey])
        #expect(damaged.status == 1 && damaged.stdout.hasPrefix(log + ": line 1: "), "\(damaged.stdout)")
    }

    @Test("a learner log of a ledger directory: checkpoint, prove and verify with --user")
    func ledgerDirectory() throws {
        let (dir, log, lines) = try Self.setUp(lines: 60)
        let key = dir.path("school.key"), vkey = dir.path("school.vkey")
        #expect(try CLI.run(["split", log, dir.path("ledger.d")]).status == 0)
        let user = try #require(lines.first.flatMap(Self.user(of:)))
        let mine = lines.filter { $0.contains(#""user":"\#(user)""#) }
        let origin = "school.example/progress/\(user)"
        #expect(try CLI.run(["checkpoint", dir.path("ledger.d"), "--key", key, "--origin", origin]).status == 64)
        let c = try Self.checkpoint(dir.path("ledger.d"), in: dir, origin: origin, user: user, to: "c")
        #expect(c.stdout.split(separator: "\n")[1] == Substring(String(mine.count)))
        let v = try CLI.run(["verify", dir.path("ledger.d"), "--user", user, "--checkpoint", dir.path("c"), "--vkey", vkey])
        #expect(v.status == 0 && v.stdout.contains(": ok: \(mine.count) events"), "\(v.stdout)")
        #expect(try CLI.run(["verify", dir.path("ledger.d"), "--checkpoint", dir.path("c"), "--vkey", vkey]).status == 64)
        // The learner log's own lines carry other seqs and prevs than the shared log's: prove line 2 of it.
        let learnerLog = LedgerDirectory.learnerName(user: user)
        let learnerLines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir.path("ledger.d/learners/\(learnerLog.prefix(2))/\(learnerLog).log"))),
                                  as: UTF8.self).split(separator: "\n")
        let p = try CLI.run(["prove", dir.path("ledger.d"), "--user", user, "--seq", "2", "--checkpoint", dir.path("c")])
        #expect(p.status == 0, "\(p.stderr)")
        try Data(p.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("p")))
        try Data(learnerLines[1].utf8).write(to: URL(fileURLWithPath: dir.path("line")))   // no LF: also accepted
        let check = try CLI.run(["check-proof", dir.path("p"), "--line", dir.path("line"), "--vkey", vkey, "--origin", origin])
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test("export --user --receipts: a checkpoint and a line and a proof for each of the learner's events")
    func exportReceipts() throws {
        let (dir, log, lines) = try Self.setUp(lines: 50)
        let key = dir.path("school.key"), vkey = dir.path("school.vkey")
        let user = try #require(Self.user(of: lines[3]))
        let seqs = lines.indices.filter { lines[$0].contains(#""user":"\#(user)""#) }.map { $0 + 1 }
        let out = dir.path("receipts")
        let r = try CLI.run(["export", log, "--user", user, "--receipts", out, "--key", key, "--origin", "school.example/progress"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == seqs.map { lines[$0 - 1] + "\n" }.joined())
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == (["checkpoint"] + seqs.flatMap { ["\($0).jsonl", "\($0).tlog-proof"] }).sorted())
        let verifier = try NoteVerifier(contentsOf: vkey)
        for seq in seqs {
            #expect(String(decoding: dir.bytes("receipts/\(seq).jsonl"), as: UTF8.self) == lines[seq - 1] + "\n")
            try InclusionProof(contentsOf: "\(out)/\(seq).tlog-proof")
                .check(line: Array(lines[seq - 1].utf8), verifier: verifier, origin: "school.example/progress", path: "p")
        }
        let first = try #require(seqs.first)
        let check = try CLI.run(["check-proof", "\(out)/\(first).tlog-proof", "--line", "\(out)/\(first).jsonl", "--vkey", vkey])
        #expect(check.status == 0, "\(check.stdout)")
        let v = try CLI.run(["verify", log, "--checkpoint", "\(out)/checkpoint", "--vkey", vkey])
        #expect(v.status == 0, "\(v.stdout)")
        // A folder that is not empty is refused; --receipts needs a key and an origin, and --user.
        let again = try CLI.run(["export", log, "--user", user, "--receipts", out, "--key", key, "--origin", "o"])
        #expect(again.status == 1 && again.stdout.isEmpty, "\(again.stderr)")
        #expect(try CLI.run(["export", log, "--user", user, "--receipts", dir.path("r2"), "--key", key]).status == 64)
        #expect(try CLI.run(["export", log, "--receipts", dir.path("r2"), "--key", key, "--origin", "o"]).status == 64)
        #expect(try CLI.run(["export", log, "--user", user, "--key", key, "--origin", "o"]).status == 64)
    }

    /// After `erase`, the checkpoint made before still verifies, `checkpoint`
    /// signs the same tree, and every line left proves against it as before.
    @Test("an erasure leaves earlier checkpoints valid and the proofs of the lines left")
    func erasure() throws {
        let (dir, log, lines) = try Self.setUp(lines: 40)
        let key = dir.path("school.key"), vkey = dir.path("school.vkey")
        let c = try Self.checkpoint(log, in: dir, to: "c")
        let user = try #require(Self.user(of: lines[0]))
        let proofs = try (1...40).map { try CLI.run(["prove", log, "--seq", String($0), "--checkpoint", dir.path("c")]).stdout }
        #expect(try CLI.run(["erase", log, "--user", user]).status == 0)
        let v = try CLI.run(["verify", log, "--checkpoint", dir.path("c"), "--vkey", vkey])
        #expect(v.status == 0, "\(v.stdout)")
        let again = try CLI.run(["checkpoint", log, "--key", key, "--origin", "school.example/progress"])
        #expect(again.stdout.split(separator: "\n").prefix(3) == c.stdout.split(separator: "\n").prefix(3))
        let after = String(decoding: dir.bytes("progress.log"), as: UTF8.self).split(separator: "\n").map(String.init)
        for seq in 1...40 where !after[seq - 1].contains(#""redacted":"#) {
            let p = try CLI.run(["prove", log, "--seq", String(seq), "--checkpoint", dir.path("c")])
            #expect(p.stdout == proofs[seq - 1], "line \(seq)")
            try Data(p.stdout.utf8).write(to: URL(fileURLWithPath: dir.path("p")))
            try Data(after[seq - 1].utf8).write(to: URL(fileURLWithPath: dir.path("line")))
            #expect(try CLI.run(["check-proof", dir.path("p"), "--line", dir.path("line"), "--vkey", vkey]).status == 0, "line \(seq)")
        }
    }
}
