print("progress-ledger")
