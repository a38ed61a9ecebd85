//! Words and names several commands print the same way.

use emx::input;

/// `polycube`, `edgematch` or `cover`, as in every command's JSON.
pub fn instance_kind(instance: &input::Instance) -> &'static str {
    match instance.kind {
        input::InstanceKind::Polycube(_) => "polycube",
        input::InstanceKind::EdgeMatch(_) => "edgematch",
        input::InstanceKind::Cover(_) => "cover",
    }
}

/// A stop reason as the text reports say it: its JSON name with spaces
/// (`time limit`, `interrupted`, ...).
pub fn stop_words(reason: emx::search::StopReason) -> String {
    let name = serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    name.replace('_', " ")
}
