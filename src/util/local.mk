# src/util: owned by the util work.
