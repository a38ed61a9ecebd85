//! Puzzle-independent encodings (filled in by the encoders work).
