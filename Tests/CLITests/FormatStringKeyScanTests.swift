import Foundation
import Testing

/// Issue 31, item 1's guard: a string of the format is compared by its code
/// points (events-v1.md), never by `String ==` or `String`'s `Hashable`,
/// which follow canonical equivalence. The one key type is `ExactString`
/// (`Events/Identity/ExactString.swift`); this scan fails when library code
/// keys a dictionary or set by `String`, or declares a `Hashable` struct
/// holding a `String`, so a newcomer meets the rule before a learner meets
/// another's data. A key that is not a format string (an ASCII date, an HTTP
/// header, a CLI option) says so on its line: `// not a format string: why`;
/// a format string a package struct carries as a value, never as a key or
/// in an identity check, says `// not a key: why`. (Public result types, such
/// as `LearnerState` and `Leaderboard.Row`, are Hashable for apps' lists;
/// the library never keys or matches learners by them.)
@Suite("no String-keyed map, set or Hashable struct in library code")
struct FormatStringKeyScanTests {
    static let folders = ["Events", "Projections", "Sources/Ledger", "Sources/LedgerAnalytics", "Sources/LedgerServer",
                          "Sources/ProgressLedger", "Sources/SyncWire", "Sources/Interop", "Sources/progress-ledger"]
    static let marker = "// not a format string"
    static let valueMarker = "// not a key"

    /// Every `.swift` file of the library folders, with its lines.
    static func sources() throws -> [(path: String, lines: [Substring])] {
        var files: [(String, [Substring])] = []
        for folder in folders {
            let root = CLI.packageRoot.appendingPathComponent(folder).path
            for case let name as String in FileManager.default.enumerator(atPath: root) ?? NSEnumerator() where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + name, encoding: .utf8)
                files.append(("\(folder)/\(name)", text.split(separator: "\n", omittingEmptySubsequences: false)))
            }
        }
        return files
    }

    @Test("dictionaries and sets keyed by String")
    func keyedByString() throws {
        let patterns = ["[String:", "[String :", "Set<String>", "Dictionary<String", "Set<String?>", "[String?:"]
        var found: [String] = []
        let files = try Self.sources()
        #expect(files.count > 300, "the scan reads the library (\(files.count) files)")
        for (path, lines) in files {
            for (k, line) in lines.enumerated() {
                let code = line.components(separatedBy: "///").first ?? ""
                guard patterns.contains(where: { code.contains($0) }), !line.contains(Self.marker),
                      !path.hasPrefix("Sources/LedgerServer/HTTP/") else { continue }   // header and query names: protocol tokens
                found.append("\(path):\(k + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "key format strings by ExactString (or mark the line '\(Self.marker): why'):\n\(found.joined(separator: "\n"))")
    }

    @Test("package and internal Hashable structs of Projections and Sources holding a String")
    func hashableWithString() throws {
        var found: [String] = []
        for (path, lines) in try Self.sources() where !path.hasPrefix("Events/") {
            var k = 0
            while k < lines.count {
                let line = lines[k]
                guard line.contains("struct "), line.contains("Hashable"), line.hasSuffix("{"), !line.contains(Self.marker),
                      !line.contains("public struct") else { k += 1; continue }
                // The struct's own stored properties: lines one level in, until its closing brace.
                let indent = line.prefix { $0 == " " }.count
                var j = k + 1
                while j < lines.count, !(lines[j].prefix { $0 == " " }.count == indent && lines[j].dropFirst(indent).hasPrefix("}")) {
                    let member = lines[j]
                    if member.prefix(while: { $0 == " " }).count == indent + 4,
                       member.contains("var ") || member.contains("let "),
                       member.range(of: #":\s*String\??\s*(=.*)?$"#, options: .regularExpression) != nil,
                       !member.contains("{"), !member.contains(Self.marker), !member.contains(Self.valueMarker) {
                        found.append("\(path):\(j + 1): \(member.trimmingCharacters(in: .whitespaces)) (in \(line.trimmingCharacters(in: .whitespaces)))")
                    }
                    j += 1
                }
                k += 1
            }
        }
        #expect(found.isEmpty, "a Hashable struct compares its String fields with String == (key it by ExactString, or mark the line '\(Self.valueMarker): why'):\n\(found.joined(separator: "\n"))")
    }
}
