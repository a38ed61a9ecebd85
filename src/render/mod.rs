//! Turning solutions into text, JSON and pictures.

pub mod svg;
pub mod text;
