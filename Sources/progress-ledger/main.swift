import Ledger

// A write to a pipe whose reader has gone fails with EPIPE (Terminal ends the tool
// quietly, exit 0); other stdout failures are errors the tool reports (exit 1).
System.ignoreBrokenPipe()
System.exit(ProgressLedgerCLI.run(CommandLine.arguments))
