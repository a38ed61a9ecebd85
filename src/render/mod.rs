//! Turning solutions into text, JSON and pictures.

pub mod text;
