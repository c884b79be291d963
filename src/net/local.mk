# src/net: owned by the net work.
