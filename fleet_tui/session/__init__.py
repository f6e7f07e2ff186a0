"""Session recording (JSONL, flushed per event) and reading back for browse and replay."""
