print("ledger-stress")
