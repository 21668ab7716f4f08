// swift-tools-version:6.0
// ProgressLedger: an append-only event log for learning apps, and the
// projections that rebuild what the app shows from it.
//
// No package dependencies: the toolchain's Foundation, Dispatch, Glibc/Darwin,
// XCTest and Swift Testing only; the platform's SQLite and, on Linux, libcrypto and
// (for the server's PostgreSQL store) libpq.
import PackageDescription

let package = Package(
    name: "ProgressLedger",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Events", targets: ["Events"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "Ledger", targets: ["Ledger"]),
        .library(name: "ProgressLedger", targets: ["ProgressLedger"]),
        .library(name: "LedgerAnalytics", targets: ["LedgerAnalytics"]),
        .library(name: "Rendering", targets: ["Rendering"]),
        .executable(name: "progress-ledger", targets: ["progress-ledger"]),
    ],
    targets: [
        .target(name: "Events", dependencies: ["CByteMask"], path: "Events"),
        // One 16-byte block's special bytes as a bit mask (SSE2's movemask, header-only C):
        // Events' string scan on x86-64, its portable Swift code elsewhere. See Sources/CByteMask/include.
        .target(name: "CByteMask", path: "Sources/CByteMask"),
        .target(name: "Projections", dependencies: ["Events"], path: "Projections"),
        // What people read: the report's, the items' and the leaderboard's text, CSV and HTML,
        // the learner's dashboard page (inline SVG charts), over one table builder.
        .target(name: "Rendering", dependencies: ["Events", "Projections"], path: "Sources/Rendering"),
        .target(name: "Ledger", dependencies: ["Events", "CSHA256", .target(name: "CLibcrypto", condition: .when(platforms: [.linux]))],
                path: "Sources/Ledger"),
        // The app and server API: an async store with group commit and live,
        // observable learner states (Ledger + Projections).
        .target(name: "ProgressLedger", dependencies: ["Events", "Ledger", "Projections", "SyncWire"], path: "Sources/ProgressLedger"),
        // The sync protocol's bytes, written once for the server and the client: the push
        // answer, refusal bodies, `Ledger-Head`, the paths and percent-encoding (docs/sync.md).
        // No Foundation.
        .target(name: "SyncWire", dependencies: ["Events", "Ledger"], path: "Sources/SyncWire"),
        // Reports and reads of every learner over logs or a ledger directory, for the
        // CLI, an app or a server (Ledger + Projections; no Foundation, so the CLI starts fast).
        .target(name: "LedgerAnalytics", dependencies: ["Events", "Ledger", "Projections"], path: "Sources/LedgerAnalytics"),
        // SHA-256 with the x86 SHA extensions (C, toolchain only): Ledger uses it when
        // the CPU has them, its Swift SHA-256 otherwise. See Sources/CSHA256/include.
        .target(name: "CSHA256", path: "Sources/CSHA256"),
        // Ed25519 for signed checkpoints (docs/receipts.md) on Linux: OpenSSL's libcrypto
        // (Debian's libssl-dev). Apple platforms use CryptoKit. See Sources/Ledger/Signing/Ed25519.swift.
        .systemLibrary(name: "CLibcrypto", path: "Sources/CLibcrypto", providers: [.apt(["libssl-dev"])]),
        // xAPI statements out, the apps' old progress stores in (docs/xapi.md, docs/import.md).
        .target(name: "Interop", dependencies: ["Events", "Projections", "Ledger", "CSQLite"], path: "Sources/Interop"),
        // The system SQLite library, for `import --from cryptogram DB` (Apple's SDKs; Debian's libsqlite3-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "Simulation", dependencies: ["Events", "Projections"], path: "Sources/Simulation"),
        // `progress-ledger serve`: the HTTP/1.1 API devices sync with (docs/sync.md,
        // docs/openapi.yaml), on the platform's sockets through Ledger's system seam.
        // No Foundation, so the CLI starts fast.
        .target(name: "LedgerServer", dependencies: ["Events", "Ledger", "Projections", "LedgerAnalytics", "SyncWire",
                                                     .target(name: "CLibpq", condition: .when(platforms: [.linux]))],
                path: "Sources/LedgerServer"),
        // PostgreSQL's libpq (Debian's libpq-dev) for `serve --store postgresql://…`: a
        // server-side system library, so only LedgerServer (and the CLI through it) links it.
        .systemLibrary(name: "CLibpq", path: "Sources/CLibpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .executableTarget(
            name: "progress-ledger",
            dependencies: ["Events", "Ledger", "Projections", "LedgerAnalytics", "Rendering", "LedgerServer", "Simulation", "Interop"],
            path: "Sources/progress-ledger"
        ),
        // A writer process for the crash, concurrency and soak tests: appends
        // in a loop and prints each acknowledged batch.
        .executableTarget(
            name: "ledger-stress",
            dependencies: ["Events", "Ledger"],
            path: "Sources/ledger-stress"
        ),
        // The worked example: the daily quiz of the first seed through the public API.
        .executableTarget(
            name: "daily-quiz-example",
            dependencies: ["Events", "Projections", "ProgressLedger"],
            path: "Sources/daily-quiz-example"
        ),
        // The README's Swift example exactly as the README writes it (ReadmeExampleTests
        // checks the two are the same, and runs it twice on one log).
        .executableTarget(
            name: "readme-example",
            dependencies: ["Events", "Projections", "ProgressLedger"],
            path: "Sources/readme-example"
        ),
        // scripts/bench's rows for the app API: group commit and the live state's cost.
        .executableTarget(
            name: "store-bench",
            dependencies: ["Events", "Ledger", "Projections", "ProgressLedger"],
            path: "Sources/store-bench"
        ),
        // scripts/bench --serve's rows: devices pushing over HTTP beside 64 threads
        // fsyncing 64 files, a pull beside a plain socket copy (issue 23).
        .executableTarget(
            name: "serve-bench",
            dependencies: ["Events", "Ledger", "LedgerServer", "SyncWire"],
            path: "Sources/serve-bench"
        ),
        .testTarget(
            name: "EventsTests",
            dependencies: ["Events", "Simulation"],
            path: "Tests/EventsTests",
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "LedgerTests",
            dependencies: ["Events", "Ledger", "Simulation", "ledger-stress"],
            path: "Tests/LedgerTests"
        ),
        .testTarget(
            name: "LedgerServerTests",
            dependencies: ["Events", "Ledger", "LedgerServer"],
            path: "Tests/LedgerServerTests"
        ),
        .testTarget(
            name: "SyncWireTests",
            dependencies: ["Events", "Ledger", "SyncWire"],
            path: "Tests/SyncWireTests"
        ),
        .testTarget(
            name: "ProjectionsTests",
            dependencies: ["Events", "Projections", "LedgerAnalytics", "Simulation"],
            path: "Tests/ProjectionsTests"
        ),
        .testTarget(
            name: "ProgressLedgerTests",
            dependencies: ["Events", "Ledger", "Projections", "ProgressLedger"],
            path: "Tests/ProgressLedgerTests"
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["Events", "Ledger", "Projections", "LedgerAnalytics", "Simulation", "Interop", "progress-ledger",
                           "ProgressLedger", "daily-quiz-example", "readme-example"],
            path: "Tests/CLITests",
            // Fixtures read from the source tree by path (CLI.packageRoot), not bundled.
            exclude: ["Resources"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
