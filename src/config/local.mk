# src/config: owned by the config work.
