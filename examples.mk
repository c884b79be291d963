# examples/: the seed clusters (E810 pair, ConnectX four) and their end-to-end tests (issue 12).
