//! Splitting a search into independent subproblem files (`emx split`) and
//! adding up their results (`emx merge`).
