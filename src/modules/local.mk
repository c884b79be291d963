# src/modules: owned by the modules work.
