# src/engine: owned by the engine work.
