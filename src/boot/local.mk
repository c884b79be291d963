# src/boot: owned by the boot work.
